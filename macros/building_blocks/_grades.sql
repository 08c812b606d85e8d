{#- Grades (SPEC §6): which truth rows are relevant, which add gain, and how much. `grade` is an
    SQL expression of a grade: a truth row's relevance column, or the largest grade of a
    (user, item) once truth has met the hits. Truth without a grade column grades every row 1. -#}

{#- The grade of a truth row. -#}
{% macro _truth_grade(plan) -%}
    {{ plan.relevance if plan.relevance is not none else '1' }}
{%- endmacro %}

{#- Relevant: grade > 0, or grade >= relevance_threshold when one is given. -#}
{% macro _is_relevant(plan, grade) -%}
    {%- if plan.relevance_threshold is none -%}
        {{ grade }} > 0
    {%- else -%}
        {{ grade }} >= cast({{ rank_metrics._number_literal(plan.relevance_threshold, 'relevance_threshold') }} as {{ rank_metrics.type_double() }})
    {%- endif -%}
{%- endmacro %}

{#- A judgment, as bpref and RBP's residual read one: a relevant row, or a grade of 0 or more. A
    negative grade judges nothing, as in trec_eval's qrels (-1: not in the pool, -2: in it but
    unjudged), whose bpref counts only grades from 0 up as judged non-relevant. -#}
{% macro _is_judged(plan, grade) -%}
    {%- if plan.relevance_threshold is none -%}
        {{ grade }} >= 0
    {%- else -%}
        ({{ grade }} >= 0 or {{ rank_metrics._is_relevant(plan, grade) }})
    {%- endif -%}
{%- endmacro %}

{#- The truth rows the ranked lists meet: those that are relevant or add gain. The condition is
    monotone in the grade, so a (user, item) judged twice keeps its largest grade among them. -#}
{% macro _is_joined(plan, grade) -%}
    {%- if plan.relevance_threshold is none -%}
        {{ grade }} > 0
    {%- else -%}
        ({{ grade }} > 0 or {{ rank_metrics._is_relevant(plan, grade) }})
    {%- endif -%}
{%- endmacro %}

{#- The gain an item of this grade adds to DCG: grades <= 0 never add any; under
    gain_from='relevant' only relevant items do. gain='graded' (RBP's grade over the top grade)
    is the grade itself here: NDCG's ratio is the same for gains scaled by one number. -#}
{% macro _gain(plan, grade) -%}
    {%- set double = rank_metrics.type_double() -%}
    case when {{ grade }} > 0
        {%- if plan.gain_from == 'relevant' %} and {{ rank_metrics._is_relevant(plan, grade) }}{% endif %}
        then {% if plan.gain in ('linear', 'graded') -%}
            cast({{ grade }} as {{ double }})
        {%- elif plan.gain == 'exponential' -%}
            power(cast(2 as {{ double }}), cast({{ grade }} as {{ double }})) - 1
        {%- else -%}
            cast(1 as {{ double }})
        {%- endif %}
        else cast(0 as {{ double }}) end
{%- endmacro %}

{#- The discount of DCG at a position: log2(position + 1), as ln/ln so every engine has it. -#}
{% macro _discount(position) -%}
    (ln(cast({{ position }} + 1 as {{ rank_metrics.type_double() }})) / ln(cast(2 as {{ rank_metrics.type_double() }})))
{%- endmacro %}
