{#- R-precision (SPEC §6b): the relevant items among the first R positions, over R, R the user's
    number of relevant items in truth (0 when R = 0): trec_eval's Rprec. It takes no k: it is
    reported once per group, with k NULL (the registry's cutoff_free), and the plan leaves the
    lists uncut, since R may be past the largest k. -#}

{% macro _per_user_r_precision(plan, k='k', at='') -%}
    case when rm_r > 0 then rm_hits_within_r / cast(rm_r as {{ rank_metrics.type_double() }}) else 0 end
{%- endmacro %}

{#- CTE rm_hits_within_r, after rm_hit_rows (the uncut hits, each counted as `duplicates` says):
    per (by, user) with such a hit, the relevant hits at positions <= R, and R. -#}
{% macro _hits_within_r(plan) -%}
rm_hits_within_r as (
    select {{ rank_metrics._column_prefix(plan.by, 'h') }}h.rm_user, count(*) as rm_hits_within_r, max(t.rm_n_relevant) as rm_r
    from rm_hit_rows as h
    inner join rm_truth_users as t
        on {{ rank_metrics._equal_prefix(plan.truth_by, 'h', 't') }}h.rm_user = t.rm_user
    where h.rm_position <= t.rm_n_relevant
        {%- if plan.relevance_threshold is not none %} and {{ rank_metrics._is_relevant(plan, 'h.rm_grade') }}{% endif %}
    group by {{ rank_metrics._column_prefix(plan.by, 'h') }}h.rm_user
)
{%- endmacro %}

{% macro default__r_precision(predictions, truth) -%}
    {{ rank_metrics._metric_at_k('r_precision', predictions, truth, none, kwargs) }}
{%- endmacro %}

{#- The public dbt macro (macros/dbt/entry_points.sql says how entry points read their arguments);
    it takes no k. -#}
{% macro r_precision(predictions, truth) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {%- do rank_metrics._refuse_k('r_precision', kwargs, varargs) -%}
    {#- the plan numbers positions up to a largest k: 1, which R-precision does not read #}
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('r_precision', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, 1, kwargs, varargs)))) }}
{% endmacro %}
