{#- CTE rm_metric_rows for evaluate, after rm_user_values and rm_rows (_evaluate): per group and
    row of rm_rows, <by columns>, k, metric, value (the mean), std_error (SPEC §7: the sample
    standard deviation over sqrt(n), NULL under two users) and n_users.

    default__ takes every metric's mean and standard error at every k in one aggregate over the
    wide rows (rm_group_means), then spreads the group's row to a row per k and metric. -#}
{% macro default__metric_rows(plan) -%}
{{ rank_metrics._group_means(plan, true) }},
rm_metric_rows as (
    select {{ rank_metrics._column_prefix(plan.by, 'g') }}r.k, r.metric,
        {{ rank_metrics._by_slot(plan, 'g.rm_mean_') }} as value,
        {{ rank_metrics._by_slot(plan, 'g.rm_std_error_') }} as std_error,
        {{ rank_metrics._n_users_by_slot(plan) }}{{ ' as n_users' if plan.counted }}
    from rm_group_means as g
    cross join rm_rows as r
)
{%- endmacro %}

{#- Spark and DuckDB spread each wide row to a row per k and metric first, so the mean and its
    standard error are two expressions over (group, k, metric), not two for every metric and k.
    Spark analyses, optimises and re-plans each expression of a query, and those 48 were most of
    what evaluate cost over MAP@12 (at 10M, by hand: 1.34x -> 1.11x MAP@12, bench/README).
    DuckDB's binder and optimiser took 0.65 s for every metric at four k (42 means and standard
    errors, 166 KB of SQL) against 0.25 s in long form. PostgreSQL stays wide: over 24 times the
    rows, its tail took 120 ms against 25. -#}
{% macro spark__metric_rows(plan) -%}
{{ rank_metrics._long_metric_rows(plan, spread_by_stddev=true) }}
{%- endmacro %}

{#- DuckDB's stddev_samp sums in the order its threads finish (its last digits changed from run to
    run): the spread is summed around the exact mean, as in _group_means. -#}
{% macro duckdb__metric_rows(plan) -%}
{{ rank_metrics._long_metric_rows(plan, spread_by_stddev=false) }}
{%- endmacro %}

{#- rm_metric_rows from a row per (group, k, metric): the mean and standard error of each. Rows
    that are users, weighing alike, take the engine's stddev_samp where `spread_by_stddev`. -#}
{% macro _long_metric_rows(plan, spread_by_stddev) -%}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{%- set keys = plan.by + ['k', 'metric'] -%}
{#- the metrics whose users weigh unequally in their mean (_user_weight), by rm_importance -#}
{%- set weighted = [] -%}
{%- for metric in plan.metrics if rank_metrics._user_weight(plan, metric) | trim %}{% do weighted.append(metric) %}{% endfor -%}
rm_long_values as (
    select {{ rank_metrics._column_prefix(plan.by, 'v') }}r.k, r.metric,
        {{- ' v.rm_users,' if plan.hit_patterns }}
        {%- if weighted %}
        case when r.metric in ({% for metric in weighted %}{{ ', ' if not loop.first }}{{ rank_metrics.string_literal(metric) }}{% endfor %}) then v.rm_list_length else 1 end as rm_importance,
        {%- endif %}
        {{ rank_metrics._by_slot(plan, 'v.rm_') }} as rm_value
    from rm_user_values as v
    cross join rm_rows as r
),
rm_metric_rows as (
{%- if not plan.hit_patterns and not weighted and spread_by_stddev %}
    select {{ by }}k, metric,
        {%- if plan.counted %}
        {#- a partial metric's users without a value are NULL rows: each row weighs 1 where it has one #}
        max(rm_mean) as value,
        {{ rank_metrics._weighted_std_error('rm_value', 'rm_mean', 'case when rm_value is not null then 1 end') }} as std_error,
        cast(count(rm_value) as bigint) as n_users
    from (
        select l.*,
            {{ rank_metrics._weighted_mean('rm_value', rank_metrics._over_groups(keys), 'case when rm_value is not null then 1 end') }} as rm_mean
        from rm_long_values as l
    ) as l
        {%- else %}
        {{ rank_metrics.mean('rm_value') }} as value,
        {{ rank_metrics._std_error('rm_value') }} as std_error,
        cast(count(*) as bigint) as n_users
    from rm_long_values
        {%- endif %}
{%- else %}
    {#- each row stands for rm_users users (or one): the mean is weighted, and the spread is summed
        around it (a window over the few pattern rows), as stddev_samp would over the users; a
        metric whose users weigh unequally weighs each row by rm_importance too #}
    select {{ by }}k, metric,
        {%- set users = 'rm_users' if plan.hit_patterns else '1' %}
        {%- set count = 'case when rm_value is not null then ' ~ users ~ ' end' if plan.counted else users %}
        {%- set weight = 'case when rm_value is not null then ' ~ users ~ ' * rm_importance end' if weighted else count %}
        max(rm_mean) as value,
        {%- if weighted %}
        {#- the weighted metrics' spread (its sum of any size falls back to doubles), the others'
            as without them: exact, the same digits every run on DuckDB #}
        case when metric in ({% for metric in weighted %}{{ ', ' if not loop.first }}{{ rank_metrics.string_literal(metric) }}{% endfor %})
            then {{ rank_metrics._weighted_std_error('rm_value', 'rm_mean', weight, 'rm_importance', count) }}
            else {{ rank_metrics._weighted_std_error('rm_value', 'rm_mean', count) }} end as std_error,
        {%- else %}
        {{ rank_metrics._weighted_std_error('rm_value', 'rm_mean', weight, none, count) }} as std_error,
        {%- endif %}
        cast({{ 'coalesce(sum(' ~ count ~ '), 0)' if plan.counted else 'sum(' ~ users ~ ')' }} as bigint) as n_users
    from (
        {%- set group = 'over (partition by ' ~ keys | join(', ') ~ ')' %}
        select l.*,
            {{ rank_metrics._weighted_mean('rm_value', group, weight) }} as rm_mean
        from rm_long_values as l
    ) as l
{%- endif %}
    group by {{ keys | join(', ') }}
)
{%- endmacro %}
