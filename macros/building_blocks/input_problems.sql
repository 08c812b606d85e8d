{#- (Text is joined with ||, which every engine has: Redshift's concat takes two arguments only.)
    The data checks of SPEC §4 that need to read the tables, as one query: each row found is a
    problem, (argument, problem), and no rows means the input is fit. Takes the arguments of the
    metric macros. The dbt entry points run it before a model builds; Python runs it before a
    metric is computed. -#}
{% macro default__input_problems(predictions, truth, k) %}
{#- compare's own arguments are its to check; the baseline must be one of the groups -#}
{%- set options = dict(kwargs) -%}
{%- set baseline = options.pop('baseline', none) -%}
{%- for name in ['test', 'correction', 'alpha'] -%}{%- do options.pop(name, none) -%}{%- endfor -%}
{%- set plan = {} -%}
{%- do rank_metrics._plan(plan, predictions, truth, k, **options) -%}
{%- set text = rank_metrics.type_string() -%}
{#- NaN and ±inf are never between the largest doubles (every engine sorts NaN above all numbers) -#}
{%- set largest = 'cast(1.7976931348623157e308 as ' ~ rank_metrics.type_double() ~ ')' -%}
{%- set prediction_checks = [('user', plan.user), ('item', plan.item),
                             ('score' if plan.order_direction == 'desc' else 'rank', plan.order_by)] -%}
{%- for column in plan.by -%}{%- do prediction_checks.append(('by', column)) -%}{%- endfor -%}
{%- set truth_checks = [('user' if plan.truth_user == plan.user else 'truth_user', plan.truth_user),
                        ('item' if plan.truth_item == plan.item else 'truth_item', plan.truth_item)] -%}
{%- if plan.relevance is not none -%}{%- do truth_checks.append(('relevance', plan.relevance)) -%}{%- endif -%}
{%- for column in plan.truth_by -%}{%- do truth_checks.append(('by', column)) -%}{%- endfor -%}
{#- the numeric columns, (table, argument, column): NaN and ±inf are rejected like NULL -#}
{%- set number_checks = [('predictions', prediction_checks[2][0], plan.order_by)] -%}
{%- if plan.relevance is not none -%}{%- do number_checks.append(('truth', 'relevance', plan.relevance)) -%}{%- endif -%}
with
rm_prediction_counts as (
    select count(*) as rm_rows
        {%- for argument, column in prediction_checks %},
        sum(case when {{ column }} is null then 1 else 0 end) as rm_nulls_{{ loop.index }}
        {%- endfor %}
        {%- for table, argument, column in number_checks if table == 'predictions' %},
        sum(case when {{ column }} is not null and not ({{ column }} between -{{ largest }} and {{ largest }}) then 1 else 0 end) as rm_nonfinite_{{ argument }}
        {%- endfor %}
    from {{ plan.predictions }} as rm_p
),
rm_truth_counts as (
    select count(*) as rm_rows,
        sum(case when {{ rank_metrics._is_relevant(plan, rank_metrics._truth_grade(plan)) }} then 1 else 0 end) as rm_relevant_rows
        {%- for argument, column in truth_checks %},
        sum(case when {{ column }} is null then 1 else 0 end) as rm_nulls_{{ loop.index }}
        {%- endfor %}
        {%- for table, argument, column in number_checks if table == 'truth' %},
        sum(case when {{ column }} is not null and not ({{ column }} between -{{ largest }} and {{ largest }}) then 1 else 0 end) as rm_nonfinite_{{ argument }}
        {%- endfor %}
    from {{ plan.truth }} as rm_t
),
rm_problems as (
{%- for table, checks in [('predictions', prediction_checks), ('truth', truth_checks)] %}
{%- for argument, column in checks %}
select {{ loop.index + (0 if table == 'predictions' else 100) }} as rm_check, {{ rank_metrics.string_literal(argument) }} as argument,
    ({{ rank_metrics.string_literal(table ~ ' has ') }} || cast(rm_nulls_{{ loop.index }} as {{ text }}) || {{ rank_metrics.string_literal(' rows with NULL in column ' ~ column ~ '; ' ~ argument ~ ' values must not be NULL') }}) as problem
from rm_{{ 'prediction' if table == 'predictions' else 'truth' }}_counts
where rm_nulls_{{ loop.index }} > 0
union all
{%- endfor %}
{%- endfor %}
{%- for table, argument, column in number_checks %}
select {{ 50 + loop.index + (0 if table == 'predictions' else 100) }} as rm_check, {{ rank_metrics.string_literal(argument) }} as argument,
    ({{ rank_metrics.string_literal(table ~ ' has ') }} || cast(rm_nonfinite_{{ argument }} as {{ text }}) || {{ rank_metrics.string_literal(' rows with NaN or an infinite value in column ' ~ column ~ '; ' ~ argument ~ ' values must be finite numbers') }}) as problem
from rm_{{ 'prediction' if table == 'predictions' else 'truth' }}_counts
where rm_nonfinite_{{ argument }} > 0
union all
{%- endfor %}
{%- if plan.users == 'truth' %}
select 200 as rm_check, 'truth' as argument,
    {{ rank_metrics.string_literal("truth has no relevant rows, so users='truth' has no user to evaluate") }} as problem
from rm_truth_counts
where rm_relevant_rows is null or rm_relevant_rows = 0
union all
{%- elif plan.users == 'judged' %}
select 200 as rm_check, 'truth' as argument,
    {{ rank_metrics.string_literal("truth has no rows, so users='judged' has no user to evaluate") }} as problem
from rm_truth_counts
where rm_rows = 0
union all
{%- elif plan.users == 'predictions' %}
select 200 as rm_check, 'predictions' as argument,
    {{ rank_metrics.string_literal("predictions has no rows, so users='predictions' has no user to evaluate") }} as problem
from rm_prediction_counts
where rm_rows = 0
union all
{%- endif %}
{%- if plan.duplicates == 'error' %}
select 300 as rm_check, 'duplicates' as argument, problem from (
    select ({{ rank_metrics.string_literal("duplicates='error': user ") }} || cast({{ plan.user }} as {{ text }}) || {{ rank_metrics.string_literal(' has item ') }} || cast({{ plan.item }} as {{ text }}) || {{ rank_metrics.string_literal(' more than once in predictions') }}) as problem
    from {{ plan.predictions }} as rm_p
    group by {{ rank_metrics._column_prefix(plan.by) }}{{ plan.user }}, {{ plan.item }}
    having count(*) > 1
    order by {{ rank_metrics._column_prefix(plan.by) }}{{ plan.user }}, {{ plan.item }}
    limit 1
) as rm_first_duplicate
union all
{%- endif %}
{%- if baseline is not none and plan.by | length == 1 %}
{#- the by column's first ten values, in order, then … when there are more; quoted when they are
    text (as the baseline is: a text baseline only matches a text column) -#}
{%- set quote = rank_metrics.string_literal("'") if baseline is string else "''" %}
select 400 as rm_check, 'baseline' as argument,
    ({{ rank_metrics.string_literal('predictions has no rows with ' ~ plan.names.by[0] ~ ' = ' ~ rank_metrics._shown(baseline) ~ '; baseline must be one of the values of by (' ~ plan.names.by[0] ~ '): ') }}
        {%- for place in range(1, 11) %}
        || coalesce({{ rank_metrics.string_literal(', ') ~ ' || ' if place > 1 }}rm_value_{{ place }}, '')
        {%- endfor %}
        || case when rm_values > 10 then {{ rank_metrics.string_literal(', …') }} else '' end) as problem
from (
    select sum(case when rm_by = {{ rank_metrics._literal(baseline, 'baseline') }} then 1 else 0 end) as rm_rows,
        {%- for place in range(1, 11) %}
        max(case when rm_place = {{ place }} then {{ quote }} || cast(rm_by as {{ text }}) || {{ quote }} end) as rm_value_{{ place }},
        {%- endfor %}
        count(*) as rm_values
    from (
        select rm_by, row_number() over (order by rm_by) as rm_place
        from (select distinct {{ plan.by[0] }} as rm_by from {{ plan.predictions }} as rm_p where {{ plan.by[0] }} is not null) as rm_distinct
    ) as rm_ordered
) as rm_baseline
where rm_rows = 0
union all
{%- endif %}
select 0 as rm_check, 'none' as argument, 'none' as problem
from rm_prediction_counts
where 1 = 0
)
-- the first problem found is the one reported: NULLs, then empty input, then duplicates
select argument, problem
from rm_problems
order by rm_check
{%- endmacro %}
