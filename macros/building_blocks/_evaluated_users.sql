{#- CTE rm_users: the users each group is evaluated over, chosen by `users`, with m(u) as
    rm_n_relevant (0 for users truth does not know; under truth_scope='listed', the relevant
    items of the user's list). Built from the user lists themselves, never from the hits, so
    users without a hit are never lost. -#}
{% macro _evaluated_users(plan) %}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{%- set group_truth = 'rm_group_truth_all' if plan.truth_scope == 'listed' else 'rm_group_truth_users' -%}
{%- if plan.by | length > 0 %}
rm_groups as (
    -- from the table as given: a group whose lists are all empty has no unnested row, yet it is
    -- evaluated (under users='truth' its users have AP 0)
    select distinct {{ plan.by | join(', ') }}
    from {{ plan.predictions_table }} as rm_p
),
{{ group_truth }} as (
    -- each group is judged against the truth rows that match its truth_by columns, or all of them
    select {{ rank_metrics._column_prefix(plan.by, 'g') }}t.rm_user, t.rm_n_relevant
    from rm_groups as g
    {%- if plan.truth_by | length > 0 %}
    inner join rm_truth_users as t
        on {{ rank_metrics._equal_prefix(plan.truth_by, 'g', 't') }}1 = 1
    {%- else %}
    cross join rm_truth_users as t
    {%- endif %}
),
{%- else %}
{{ group_truth }} as (
    select rm_user, rm_n_relevant
    from rm_truth_users
),
{%- endif %}
{%- if plan.truth_scope == 'listed' %}
rm_group_truth_users as (
    -- m(u) counted on the truth items the list holds, for every rule below
    select {{ rank_metrics._column_prefix(plan.by, 't') }}t.rm_user, coalesce(l.rm_n_relevant, 0) as rm_n_relevant
    from rm_group_truth_all as t
    left join (
        select {{ by }}rm_user, sum(case when {{ rank_metrics._is_relevant(plan, 'rm_grade') }} then 1 else 0 end) as rm_n_relevant
        from rm_listed_items
        group by {{ by }}rm_user
    ) as l
        on {{ rank_metrics._equal_prefix(plan.by, 't', 'l') }}t.rm_user = l.rm_user
),
{%- endif %}
rm_users as (
{%- if plan.users == 'truth' %}
    select {{ by }}rm_user, rm_n_relevant
    from rm_group_truth_users
    where rm_n_relevant > 0
{%- elif plan.users == 'judged' %}
    -- every user with a truth row, whatever its grade: m = 0 counts, with AP = 0
    select {{ by }}rm_user, rm_n_relevant
    from rm_group_truth_users
{%- elif plan.users == 'predictions' %}
    select {{ rank_metrics._column_prefix(plan.by, 'p') }}p.rm_user, coalesce(t.rm_n_relevant, 0) as rm_n_relevant
    from rm_prediction_users as p
    left join rm_group_truth_users as t
        on {{ rank_metrics._equal_prefix(plan.by, 'p', 't') }}p.rm_user = t.rm_user
{%- elif plan.users == 'both' %}
    select {{ rank_metrics._column_prefix(plan.by, 'p') }}p.rm_user, t.rm_n_relevant
    from rm_prediction_users as p
    inner join rm_group_truth_users as t
        on {{ rank_metrics._equal_prefix(plan.by, 'p', 't') }}p.rm_user = t.rm_user
{%- else %}
    select
        {%- for column in plan.by %} coalesce(p.{{ column }}, t.{{ column }}) as {{ column }},{% endfor %}
        coalesce(p.rm_user, t.rm_user) as rm_user, coalesce(t.rm_n_relevant, 0) as rm_n_relevant
    from rm_prediction_users as p
    full outer join rm_group_truth_users as t
        on {{ rank_metrics._equal_prefix(plan.by, 'p', 't') }}p.rm_user = t.rm_user
{%- endif %}
)
{%- endmacro %}
