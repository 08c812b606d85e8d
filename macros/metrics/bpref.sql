{#- bpref (SPEC §6b): for each relevant item of the user's list r, in list order, 1 − min(n_r, R) /
    min(R, N), n_r the judged non-relevant items ranked above r, R and N the user's relevant and
    judged non-relevant items in truth (a term is 1 when no judged non-relevant item is above);
    their sum over R (0 when R = 0): trec_eval's bpref. Items truth does not judge are skipped.
    It takes no k (the registry's cutoff_free): the plan leaves the lists uncut and, when truth
    has grades, meets them with every judged row (plan.judged_rows, rm_judged_rows), not only
    the relevant ones. -#}

{% macro _per_user_bpref(plan, k='k', at='') -%}
    rm_bpref
{%- endmacro %}

{#- CTE rm_bpref, after the hits: per (by, user) with a relevant item in its list, its bpref. The
    terms' sum is the hits less Σ min(n_r, R) / min(R, N), whose sum is of integers, so exact
    in any order. -#}
{% macro _bpref_per_user(plan) -%}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{%- set double = rank_metrics.type_double() -%}
{%- set truth_by = rank_metrics._column_prefix(plan.truth_by) -%}
{%- if plan.relevance is none %}
rm_bpref as (
    -- truth without grades judges nothing non-relevant (N = 0): every term is 1, and bpref is the
    -- relevant items of the whole list over R
    select {{ rank_metrics._column_prefix(plan.by, 'h') }}h.rm_user, count(*) / cast(max(t.rm_n_relevant) as {{ double }}) as rm_bpref
    from rm_hit_rows as h
    inner join rm_truth_users as t
        on {{ rank_metrics._equal_prefix(plan.truth_by, 'h', 't') }}h.rm_user = t.rm_user
    group by {{ rank_metrics._column_prefix(plan.by, 'h') }}h.rm_user
)
{%- else %}
rm_bpref as (
    select {{ rank_metrics._column_prefix(plan.by, 'h') }}h.rm_user,
        (count(*) - sum(least(h.rm_nonrelevant_above, t.rm_r)) / cast(greatest(least(max(t.rm_r), max(t.rm_n)), 1) as {{ double }}))
            / max(t.rm_r) as rm_bpref
    from (
        select {{ by }}rm_user, rm_relevant,
            -- at a relevant row, the judged non-relevant rows above it (positions are unique per list)
            sum(1 - rm_relevant) over (partition by {{ by }}rm_user order by rm_position
                                       rows between unbounded preceding and current row) as rm_nonrelevant_above
        from (
            select {{ by }}rm_user, rm_position, case when {{ rank_metrics._is_relevant(plan, 'rm_grade') }} then 1 else 0 end as rm_relevant
            from {{ 'rm_judged_rows' if plan.judged_rows else 'rm_hit_rows' }}
        ) as j
    ) as h
    inner join (
        -- R and N of each user truth has, an item judged twice by its largest grade
        select {{ truth_by }}rm_user,
            count(case when {{ rank_metrics._is_relevant(plan, 'rm_grade') }} then 1 end) as rm_r,
            count(case when not ({{ rank_metrics._is_relevant(plan, 'rm_grade') }}) then 1 end) as rm_n
        from (
            select {{ truth_by }}rm_user, rm_item, max(rm_grade) as rm_grade
            from {{ rank_metrics._truth_rows(plan, judged=true) }} as r
            group by {{ truth_by }}rm_user, rm_item
        ) as items
        group by {{ truth_by }}rm_user
    ) as t
        on {{ rank_metrics._equal_prefix(plan.truth_by, 'h', 't') }}h.rm_user = t.rm_user
    where h.rm_relevant = 1
    group by {{ rank_metrics._column_prefix(plan.by, 'h') }}h.rm_user
)
{%- endif %}
{%- endmacro %}

{% macro default__bpref(predictions, truth) -%}
    {{ rank_metrics._metric_at_k('bpref', predictions, truth, none, kwargs) }}
{%- endmacro %}

{#- The public dbt macro (macros/dbt/entry_points.sql says how entry points read their arguments);
    it takes no k. -#}
{% macro bpref(predictions, truth) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {%- do rank_metrics._refuse_k('bpref', kwargs, varargs) -%}
    {#- the plan numbers positions up to a largest k: 1, which bpref does not read #}
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('bpref', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, 1, kwargs, varargs)))) }}
{% endmacro %}
