{#- CTE rm_users: the users each group is evaluated over, chosen by `users`, with m(u) as
    rm_n_relevant (0 for users truth does not know; under truth_scope='listed', the relevant
    items of the user's list, with, under hit patterns, the user's hit word rm_hit_bits). Built
    from the user lists themselves, never from the hits, so users without a hit are never lost. -#}
{% macro _evaluated_users(plan) %}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{#- listed m(u) and the hit word from one pass over the hits: Spark computes a CTE at each of
    its references, and reading rm_listed_items and rm_hits computed the hits twice -#}
{%- set bits = plan.truth_scope == 'listed' and plan.hit_patterns -%}
{%- set group_truth = 'rm_group_truth_all' if plan.truth_scope == 'listed' else 'rm_group_truth_users' -%}
{#- under truth_scope='listed', users='truth' and 'predictions' need no list of truth's users:
    a user with a listed truth item is one (Spark: one aggregate of truth fewer) -#}
{%- set from_listed = plan.truth_scope == 'listed' and plan.users in ('truth', 'predictions') -%}
{%- if from_listed %}
{%- elif plan.by | length > 0 %}
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
    {%- if not from_listed %}
    select {{ rank_metrics._column_prefix(plan.by, 't') }}t.rm_user, coalesce(l.rm_n_relevant, 0) as rm_n_relevant
        {{- ', coalesce(l.rm_hit_bits, 0) as rm_hit_bits' if bits }}
    from rm_group_truth_all as t
    left join (
    {%- endif %}
        select {{ by }}rm_user, sum(case when {{ rank_metrics._is_relevant(plan, 'rm_grade') }} then 1 else 0 end) as rm_n_relevant
            {%- if bits %},
            {{ rank_metrics.bit_or('case when ' ~ rank_metrics._is_relevant(plan, 'rm_grade') ~ ' then rm_hit_bits else 0 end') }} as rm_hit_bits
            {%- endif %}
        from rm_listed_items
        group by {{ by }}rm_user
    {%- if not from_listed %}
    ) as l
        on {{ rank_metrics._equal_prefix(plan.by, 't', 'l') }}t.rm_user = l.rm_user
    {%- endif %}
),
{%- endif %}
rm_users as (
{%- set with_bits = ', rm_hit_bits' if bits else '' %}
{%- if plan.users == 'truth' %}
    select {{ by }}rm_user, rm_n_relevant{{ with_bits }}
    from rm_group_truth_users
    where rm_n_relevant > 0
{%- elif plan.users == 'judged' %}
    -- every user with a truth row, whatever its grade: m = 0 counts, with AP = 0
    select {{ by }}rm_user, rm_n_relevant{{ with_bits }}
    from rm_group_truth_users
{%- elif plan.users == 'predictions' %}
    select {{ rank_metrics._column_prefix(plan.by, 'p') }}p.rm_user, coalesce(t.rm_n_relevant, 0) as rm_n_relevant
        {{- ', coalesce(t.rm_hit_bits, 0) as rm_hit_bits' if bits }}
    from rm_prediction_users as p
    left join rm_group_truth_users as t
        on {{ rank_metrics._equal_prefix(plan.by, 'p', 't') }}p.rm_user = t.rm_user
{%- elif plan.users == 'both' %}
    select {{ rank_metrics._column_prefix(plan.by, 'p') }}p.rm_user, t.rm_n_relevant{{ ', t.rm_hit_bits' if bits }}
    from rm_prediction_users as p
    inner join rm_group_truth_users as t
        on {{ rank_metrics._equal_prefix(plan.by, 'p', 't') }}p.rm_user = t.rm_user
{%- else %}
    select
        {%- for column in plan.by %} coalesce(p.{{ column }}, t.{{ column }}) as {{ column }},{% endfor %}
        coalesce(p.rm_user, t.rm_user) as rm_user, coalesce(t.rm_n_relevant, 0) as rm_n_relevant
        {{- ', coalesce(t.rm_hit_bits, 0) as rm_hit_bits' if bits }}
    from rm_prediction_users as p
    full outer join rm_group_truth_users as t
        on {{ rank_metrics._equal_prefix(plan.by, 'p', 't') }}p.rm_user = t.rm_user
{%- endif %}
)
{%- endmacro %}
