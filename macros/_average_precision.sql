{#- CTE rm_average_precision: AP@k per evaluated user and k, after _ranked_hits and
    _evaluated_users. Every k is summed in the same pass over the hits (one column pair per k),
    then spread to a row per k. -#}
{% macro _average_precision(plan) %}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{%- set double = rank_metrics.type_double() -%}
rm_user_sums as (
    select {{ by }}rm_user
        {%- for k in plan.ks %},
        sum(case when rm_position <= {{ k }} then cast(rm_hits_so_far as {{ double }}) / rm_position else 0 end) as rm_precision_sum_{{ loop.index }},
        sum(case when rm_position <= {{ k }} then 1 else 0 end) as rm_hits_{{ loop.index }}
        {%- endfor %}
    from rm_hits
    group by {{ by }}rm_user
),
rm_ks as (
    {%- for k in plan.ks %}
    select cast({{ k }} as bigint) as k{{ ' union all' if not loop.last }}
    {%- endfor %}
),
rm_user_k as (
    select {{ rank_metrics._column_prefix(plan.by, 'u') }}u.rm_user, ks.k, u.rm_n_relevant,
        case {%- for k in plan.ks %} when ks.k = {{ k }} then coalesce(s.rm_precision_sum_{{ loop.index }}, 0){% endfor %} end as rm_precision_sum,
        case {%- for k in plan.ks %} when ks.k = {{ k }} then coalesce(s.rm_hits_{{ loop.index }}, 0){% endfor %} end as rm_n_hits
    from rm_users as u
    cross join rm_ks as ks
    left join rm_user_sums as s
        on {{ rank_metrics._equal_prefix(plan.by, 'u', 's') }}u.rm_user = s.rm_user
),
rm_average_precision as (
    select {{ by }}rm_user, k,
        {%- if plan.normalization == 'min_m_k' %}
        case when rm_n_relevant > 0 then rm_precision_sum / cast(least(rm_n_relevant, k) as {{ double }}) else 0 end
        {%- elif plan.normalization == 'm' %}
        case when rm_n_relevant > 0 then rm_precision_sum / cast(rm_n_relevant as {{ double }}) else 0 end
        {%- else %}
        case when rm_n_relevant > 0 and rm_n_hits > 0 then rm_precision_sum / cast(rm_n_hits as {{ double }}) else 0 end
        {%- endif %} as average_precision,
        cast(rm_n_relevant as bigint) as n_relevant,
        cast(rm_n_hits as bigint) as n_hits
    from rm_user_k
)
{%- endmacro %}
