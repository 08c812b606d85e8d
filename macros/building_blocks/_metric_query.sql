{#- The shapes of the metric queries, shared by every public metric macro: the one pass
    (_ranked_hits, _evaluated_users, _user_sums) and the select that reads it. `options` holds
    the keyword arguments of the public macro (column names, options, column lists). A metric
    at k averages one row per user (or hit pattern) that holds every k (_user_values), then
    spreads the few group rows to a row per k; evaluate spreads those rows to a row per k and
    metric before it averages them, and per-user output spreads users to a row per k. -#}

{#- One metric per group and k: <by columns>, k, <metric>_at_k, n_users. -#}
{% macro _metric_at_k(metric, predictions, truth, k, options) %}
{%- do rank_metrics._macro_arguments(metric ~ '_at_k', options) -%}
{%- set plan = {} -%}
{%- do rank_metrics._plan(plan, predictions, truth, k, **dict(options, metrics=[metric])) -%}
{%- do plan.update({'hit_patterns': plan.patterns_suffice}) -%}
{{ rank_metrics._one_pass(plan) }},
{{ rank_metrics._user_values(plan) }},
{{ rank_metrics._group_means(plan) }},
{{ rank_metrics._ks(plan) }}
select {{ rank_metrics._column_prefix(plan.by, 'g') }}ks.k,
    case {%- for k in plan.ks %} when ks.k = {{ k }} then g.rm_mean_{{ metric }}_{{ loop.index }}{% endfor %} end as {{ plan.group_columns[metric] }},
    g.n_users
from rm_group_means as g
cross join rm_ks as ks
{%- endmacro %}

{#- Every requested metric per evaluated user and k. -#}
{% macro _evaluate_users(predictions, truth, k, options) %}
{%- do rank_metrics._macro_arguments('evaluate_users', options) -%}
{%- set plan = {} -%}
{%- do rank_metrics._plan(plan, predictions, truth, k, **options) -%}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{{ rank_metrics._one_pass(plan) }},
{{ rank_metrics._user_metrics(plan) }}
select {{ by }}rm_user as {{ plan.user }}, k,
    {%- for metric in plan.metrics %} {{ plan.metric_columns[metric] }},{% endfor %} n_relevant, n_hits
from rm_user_metrics
{%- endmacro %}

{#- Every requested metric per group and k, a row each: <by columns>, k, metric, value, n_users,
    std_error, ci_low, ci_high (SPEC §7: the sample standard deviation over sqrt(n), NULL for
    fewer than two users; the interval value -/+ z std_error). Each user's (or pattern's) wide
    row is spread to a row per k and metric first, so the mean and its standard error are two
    expressions over (group, k, metric), not two for every metric and k: Spark plans each
    expression of a query, and the 48 wide ones had made evaluate's fixed cost (bench/README). -#}
{% macro _evaluate(predictions, truth, k, options) %}
{%- do rank_metrics._macro_arguments('evaluate', options) -%}
{%- set plan = {} -%}
{%- do rank_metrics._plan(plan, predictions, truth, k, **options) -%}
{%- do plan.update({'hit_patterns': plan.patterns_suffice}) -%}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{%- set double = rank_metrics.type_double() -%}
{{ rank_metrics._one_pass(plan) }},
{{ rank_metrics._user_values(plan) }},
{%- set columns = [] -%}
{%- for k in plan.ks %}{% set at = '_' ~ loop.index %}{% for metric in plan.metrics %}{% do columns.append([k, metric, 'rm_' ~ metric ~ at]) %}{% endfor %}{% endfor %}
rm_rows as (
    -- a row per k and metric, in the order asked, numbered (a number is quicker to pick by
    -- than a k and a metric's name: DuckDB took 4% longer over a row per user)
    {%- for k, metric, column in columns %}
    select {{ loop.index }} as rm_slot, cast({{ k }} as bigint) as k, {{ rank_metrics.string_literal(metric) }} as metric{{ ' union all' if not loop.last }}
    {%- endfor %}
),
rm_long_values as (
    select {{ rank_metrics._column_prefix(plan.by, 'v') }}r.k, r.metric,
        {{- ' v.rm_users,' if plan.hit_patterns }}
        case r.rm_slot {%- for k, metric, column in columns %}
            when {{ loop.index }} then v.{{ column }}{% endfor %}
        end as rm_value
    from rm_user_values as v
    cross join rm_rows as r
),
rm_metric_rows as (
{%- set keys = plan.by + ['k', 'metric'] %}
{%- if not plan.hit_patterns %}
    select {{ by }}k, metric,
        {{ rank_metrics.mean('rm_value') }} as value,
        case when count(*) >= 2 then stddev_samp(rm_value) / sqrt(cast(count(*) as {{ double }})) end as std_error,
        cast(count(*) as bigint) as n_users
    from rm_long_values
{%- else %}
    {#- each row stands for rm_users users: the mean is weighted, and the spread is summed around
        it (a window over the few pattern rows), as stddev_samp would over the users -#}
    {%- set n = 'cast(sum(rm_users) as ' ~ double ~ ')' %}
    {%- set deviation = '(rm_value - rm_mean)' %}
    select {{ by }}k, metric,
        max(rm_mean) as value,
        case when {{ n }} >= 2 then sqrt({{ rank_metrics.sum_of_values('rm_users * ' ~ deviation ~ ' * ' ~ deviation) }} / ({{ n }} - 1)) / sqrt({{ n }}) end as std_error,
        cast(sum(rm_users) as bigint) as n_users
    from (
        {%- set group = 'over (partition by ' ~ keys | join(', ') ~ ')' %}
        select l.*,
            {{ rank_metrics.sum_of_values('rm_users * rm_value', group) }} / cast(sum(rm_users) {{ group }} as {{ double }}) as rm_mean
        from rm_long_values as l
    ) as l
{%- endif %}
    group by {{ keys | join(', ') }}
)
select {{ by }}k, metric, value, n_users, std_error,
    value - cast({{ plan.z }} as {{ double }}) * std_error as ci_low,
    value + cast({{ plan.z }} as {{ double }}) * std_error as ci_high
from rm_metric_rows
{%- endmacro %}

{#- CTE rm_group_means: per group, every requested metric's mean at every k, rm_mean_<metric>_<i>,
    and n_users. Under hit_patterns the rows are patterns, each standing for rm_users users, and
    the mean is weighted. -#}
{% macro _group_means(plan) %}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{%- set double = rank_metrics.type_double() -%}
rm_group_means as (
    select {{ by }}
        {%- for k in plan.ks %}{% set at = '_' ~ loop.index %}{% for metric in plan.metrics %}
        {%- if plan.hit_patterns %}
        {{ rank_metrics.sum_of_values('rm_users * rm_' ~ metric ~ at) }} / cast(sum(rm_users) as {{ double }}) as rm_mean_{{ metric }}{{ at }},
        {%- else %}
        {{ rank_metrics.mean('rm_' ~ metric ~ at) }} as rm_mean_{{ metric }}{{ at }},
        {%- endif %}
        {%- endfor %}{% endfor %}
        cast({{ 'sum(rm_users)' if plan.hit_patterns else 'count(*)' }} as bigint) as n_users
    from rm_user_values
    {{ rank_metrics._group_by(plan.by) }}
)
{%- endmacro %}

{#- `group by` the by columns, or, without them, one row for all users, and none when there are
    no users (as a group by over no rows gives). -#}
{% macro _group_by(columns) -%}
    {%- if columns | length > 0 -%}
    group by {{ columns | join(', ') }}
    {%- else -%}
    having count(*) > 0
    {%- endif -%}
{%- endmacro %}

{#- The CTEs of the one pass, after `with`: ranked hits, evaluated users, per-user sums. -#}
{% macro _one_pass(plan) -%}
with
{{ rank_metrics._ranked_hits(plan) }},
{{ rank_metrics._evaluated_users(plan) }},
{{ rank_metrics._user_sums(plan) }}
{%- endmacro %}
