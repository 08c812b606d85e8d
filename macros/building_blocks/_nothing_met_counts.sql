{#- Python's all-zero warning asks this only when nothing was met (every value 0, or no user
    evaluated), to say why: (prediction rows, truth rows, truth rows that can be hits, users in
    both tables, users in both with the same values of the by columns truth also has — NULL
    when there are none), the lists unnested as the metric reads them. Takes the metric macros'
    arguments. -#}
{% macro _nothing_met_counts(predictions, truth, k) %}
{%- set plan = {} -%}
{%- do rank_metrics._plan(plan, predictions, truth, k, **kwargs) -%}
select
    (select count(*) from {{ plan.predictions }} as rm_p) as rm_prediction_rows,
    (select count(*) from {{ plan.truth }} as rm_t) as rm_truth_rows,
    (select count(*) from {{ rank_metrics._truth_rows(plan) }} as rm_r where {{ rank_metrics._is_relevant(plan, 'rm_r.rm_grade') }}) as rm_relevant_rows,
    (select count(*)
     from (select distinct {{ plan.user }} as rm_user from {{ plan.predictions }} as rm_p) as p
     inner join (select distinct {{ plan.truth_user }} as rm_user from {{ plan.truth }} as rm_t) as t
         on p.rm_user = t.rm_user) as rm_shared_users,
    {% if plan.truth_by -%}
    (select count(*)
     from (select distinct {{ plan.user }} as rm_user{% for column in plan.truth_by %}, {{ column }} as rm_by_{{ loop.index }}{% endfor %}
           from {{ plan.predictions }} as rm_p) as p
     inner join (select distinct {{ plan.truth_user }} as rm_user{% for column in plan.truth_by %}, {{ column }} as rm_by_{{ loop.index }}{% endfor %}
           from {{ plan.truth }} as rm_t) as t
         on p.rm_user = t.rm_user{% for column in plan.truth_by %} and p.rm_by_{{ loop.index }} = t.rm_by_{{ loop.index }}{% endfor %})
    {%- else %}null{% endif %} as rm_shared_groups
{% endmacro %}


{#- The groups of a table: each distinct row of its `columns` (quoted), as rm_value_1, … (Python
    asks it to name the groups of predictions that no user is evaluated for, and so have no row). -#}
{% macro _distinct_values(relation, columns) -%}
select distinct {% for column in columns %}{{ column }} as rm_value_{{ loop.index }}{{ ', ' if not loop.last }}{% endfor %}
from {{ relation }} as rm_r
{%- endmacro %}


{#- The report's inputs: (prediction rows, their users, truth rows, their users, truth rows that
    can be hits), the lists unnested as the metric reads them. Takes the metric macros' arguments. -#}
{% macro _input_counts(predictions, truth, k) %}
{%- set plan = {} -%}
{%- do rank_metrics._plan(plan, predictions, truth, k, **kwargs) -%}
select
    (select count(*) from {{ plan.predictions }} as rm_p) as rm_prediction_rows,
    (select count(distinct {{ plan.user }}) from {{ plan.predictions }} as rm_p) as rm_prediction_users,
    (select count(*) from {{ plan.truth }} as rm_t) as rm_truth_rows,
    (select count(distinct {{ plan.truth_user }}) from {{ plan.truth }} as rm_t) as rm_truth_users,
    (select count(*) from {{ rank_metrics._truth_rows(plan) }} as rm_r where {{ rank_metrics._is_relevant(plan, 'rm_r.rm_grade') }}) as rm_relevant_rows
{% endmacro %}
