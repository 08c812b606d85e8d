{#- The building block every ranking metric shares: CTEs that number each user's list and find
    its hits. It renders (after `with`):
      rm_truth_users   one row per (truth_by, user) in truth, with rm_n_relevant = m(u)
      rm_positions     one row per prediction kept, with rm_position = 1, 2, 3, … per (by, user)
      rm_hits          one row per hit within the largest k, with rm_position and
                       rm_hits_so_far (the running count of hits up to and including it)
    Predictions meet the relevant set right after positions are numbered, so the repeat check
    and the running count only ever see hit rows. -#}
{% macro _ranked_hits(plan) %}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{%- set truth_by = rank_metrics._column_prefix(plan.truth_by) -%}
rm_truth as (
    select {{ truth_by }}{{ plan.user }} as rm_user, {{ plan.item }} as rm_item,
        {% if plan.relevance is none %}1{% else %}case when {{ plan.relevance }} > 0 then 1 else 0 end{% endif %} as rm_is_relevant
    from {{ plan.truth }}
),
rm_relevant as (
    -- R(u): the distinct relevant items
    select distinct {{ truth_by }}rm_user, rm_item
    from rm_truth
    where rm_is_relevant = 1
),
rm_truth_users as (
    select {{ truth_by }}rm_user,
        count(distinct case when rm_is_relevant = 1 then rm_item end) as rm_n_relevant
    from rm_truth
    group by {{ truth_by }}rm_user
),
rm_source as (
    {%- if plan.duplicates == 'collapse' %}
    -- repeats are dropped before positions are numbered: each item keeps its best place
    select {{ by }}{{ plan.user }} as rm_user, {{ plan.item }} as rm_item,
        {{ 'min' if plan.order_direction == 'asc' else 'max' }}({{ plan.order_by }}) as rm_order_value
    from {{ plan.predictions }}
    group by {{ by }}{{ plan.user }}, {{ plan.item }}
    {%- else %}
    select {{ by }}{{ plan.user }} as rm_user, {{ plan.item }} as rm_item, {{ plan.order_by }} as rm_order_value
    from {{ plan.predictions }}
    {%- endif %}
),
rm_positions as (
    -- rows that agree on both rank (or score) and item are the same entry twice, so which of
    -- them comes first changes nothing: (order value, item) is a unique tie-break in effect
    select {{ by }}rm_user, rm_item,
        row_number() over (
            partition by {{ by }}rm_user
            order by rm_order_value {{ plan.order_direction }}, rm_item {{ plan.item_direction }}
        ) as rm_position
    from rm_source
),
rm_candidate_hits as (
    -- relevant items within the largest k; the join comes before anything else per row, so
    -- what follows only sees these few rows
    select {{ rank_metrics._column_prefix(plan.by, 'p') }}p.rm_user, p.rm_item, p.rm_position
    from rm_positions as p
    inner join rm_relevant as r
        on {{ rank_metrics._equal_prefix(plan.truth_by, 'p', 'r') }}p.rm_user = r.rm_user and p.rm_item = r.rm_item
    where p.rm_position <= {{ plan.ks | max }}
),
rm_hit_rows as (
    {%- if plan.duplicates in ('first', 'error') %}
    -- under duplicates='first' only an item's first appearance is a hit
    select {{ by }}rm_user, rm_position
    from (
        select {{ by }}rm_user, rm_position,
            row_number() over (partition by {{ by }}rm_user, rm_item order by rm_position) as rm_occurrence
        from rm_candidate_hits
    ) as rm_occurrences
    where rm_occurrence = 1
    {%- else %}
    select {{ by }}rm_user, rm_position
    from rm_candidate_hits
    {%- endif %}
),
rm_hits as (
    select {{ by }}rm_user, rm_position,
        row_number() over (partition by {{ by }}rm_user order by rm_position) as rm_hits_so_far
    from rm_hit_rows
)
{%- endmacro %}
