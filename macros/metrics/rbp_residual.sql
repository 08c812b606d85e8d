{#- RBP's residual at k (SPEC §6b): (1 - p) Σ over the unjudged positions i <= k of p^(i - 1),
    plus p^k, the weight past k: how much RBP@k could still rise if every unjudged item were
    relevant. A position is judged when it holds an item with a truth row of any grade (the
    registry's judged: the lists meet every truth row), a repeat too; a position past the end of
    a list shorter than k holds none, and counts as unjudged, as cwl_eval pads a ranking. Since
    the weights of positions 1..k and p^k add up to 1, that is 1 less (1 - p) Σ over the judged
    positions i <= k of p^(i - 1). -#}

{% macro _per_user_rbp_residual(plan, k='k', at='') -%}
    1 - rm_judged_rbp{{ at }}
{%- endmacro %}

{#- CTE rm_judged_rbp, after the hits: per (by, user) with a judged item within the largest k,
    for the i-th k rm_judged_rbp_i, (1 - p) Σ p^(i - 1) over its judged positions within k
    (each position once, though truth judge its item twice). Under hit patterns, the word of those
    positions instead, rm_judged_bits, which the pattern then holds beside the hits' word
    (_pattern_sums): users are counted per pattern still. -#}
{% macro _judged_rbp(plan) -%}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
rm_judged_rbp as (
    select {{ by }}rm_user
        {%- if plan.hit_patterns %},
        {{ rank_metrics.bit_or(rank_metrics.shift_left('cast(1 as bigint)', 'cast(rm_position as integer)')) }} as rm_judged_bits
        {%- else %}
        {%- for k in plan.ks %},
        {{ rank_metrics.sum_of_values('case when rm_position <= ' ~ k ~ ' then ' ~ rank_metrics._rbp_term(plan, 'rm_position') ~ ' else 0 end') }} as rm_judged_rbp_{{ loop.index }}
        {%- endfor %}
        {%- endif %}
    {#- a word's bits are set once however often a position is met (truth judging an item twice):
        the sums need each position once #}
    from {{ 'rm_candidate_hits' if plan.hit_patterns else '(select distinct ' ~ by ~ 'rm_user, rm_position from rm_candidate_hits)' }} as j
    where rm_position <= {{ plan.ks | max }}
    group by {{ by }}rm_user
)
{%- endmacro %}

{#- The judged positions' sum within k from their word (under hit patterns), over the positions
    after `after`: RBP's terms of its bits. -#}
{% macro _judged_rbp_from_bits(plan, bits, k, after=0) -%}
    {{ rank_metrics._rbp_from_bits(plan, bits, k, after) }}
{%- endmacro %}

{% macro default__rbp_residual_at_k(predictions, truth, k) -%}
    {{ rank_metrics._metric_at_k('rbp_residual', predictions, truth, k, kwargs) }}
{%- endmacro %}

{#- The public dbt macro (macros/dbt/entry_points.sql says how entry points read their arguments). -#}
{% macro rbp_residual_at_k(predictions, truth, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('rbp_residual_at_k', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, k, kwargs, varargs)))) }}
{% endmacro %}
