{#- The shapes of the metric queries, shared by every public metric macro: the one pass
    (_ranked_hits, _evaluated_users, _user_metrics) and the select that reads it. `options` holds
    the keyword arguments of the public macro (column names, options, column lists). -#}

{#- One metric per group and k: <by columns>, k, <metric>_at_k, n_users. -#}
{% macro _metric_at_k(metric, predictions, truth, k, options) %}
{%- set plan = {} -%}
{%- do rank_metrics._plan(plan, predictions, truth, k, **dict(options, metrics=[metric])) -%}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{{ rank_metrics._one_pass(plan) }}
select {{ by }}k,
    avg({{ plan.metric_columns[metric] }}) as {{ plan.group_columns[metric] }},
    cast(count(*) as bigint) as n_users
from rm_user_metrics
group by {{ by }}k
{%- endmacro %}

{#- Every requested metric per evaluated user and k. -#}
{% macro _evaluate_users(predictions, truth, k, options) %}
{%- set plan = {} -%}
{%- do rank_metrics._plan(plan, predictions, truth, k, **options) -%}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{{ rank_metrics._one_pass(plan) }}
select {{ by }}rm_user as {{ plan.user }}, k,
    {%- for metric in plan.metrics %} {{ plan.metric_columns[metric] }},{% endfor %} n_relevant, n_hits
from rm_user_metrics
{%- endmacro %}

{#- Every requested metric per group and k, a row each: <by columns>, k, metric, value, n_users,
    std_error, ci_low, ci_high (SPEC §7: the sample standard deviation over sqrt(n), NULL for
    fewer than two users; the interval value -/+ z std_error). The means are taken once per
    group and k, then spread to a row per metric. -#}
{% macro _evaluate(predictions, truth, k, options) %}
{%- set plan = {} -%}
{%- do rank_metrics._plan(plan, predictions, truth, k, **options) -%}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{%- set double = rank_metrics.type_double() -%}
{{ rank_metrics._one_pass(plan) }},
rm_group_means as (
    select {{ by }}k,
        {%- for metric in plan.metrics %}
        avg({{ plan.metric_columns[metric] }}) as {{ plan.metric_columns[metric] }},
        case when count(*) >= 2 then stddev_samp({{ plan.metric_columns[metric] }}) / sqrt(cast(count(*) as {{ double }})) end as rm_std_error_{{ loop.index }},
        {%- endfor %}
        cast(count(*) as bigint) as n_users
    from rm_user_metrics
    group by {{ by }}k
),
rm_metric_names as (
    {%- for metric in plan.metrics %}
    select {{ rank_metrics.string_literal(metric) }} as metric{{ ' union all' if not loop.last }}
    {%- endfor %}
),
rm_metric_rows as (
    select {{ rank_metrics._column_prefix(plan.by, 'g') }}g.k, n.metric,
        case {%- for metric in plan.metrics %} when n.metric = {{ rank_metrics.string_literal(metric) }} then g.{{ plan.metric_columns[metric] }}{% endfor %} end as value,
        g.n_users,
        case {%- for metric in plan.metrics %} when n.metric = {{ rank_metrics.string_literal(metric) }} then g.rm_std_error_{{ loop.index }}{% endfor %} end as std_error
    from rm_group_means as g
    cross join rm_metric_names as n
)
select {{ by }}k, metric, value, n_users, std_error,
    value - cast({{ plan.z }} as {{ double }}) * std_error as ci_low,
    value + cast({{ plan.z }} as {{ double }}) * std_error as ci_high
from rm_metric_rows
{%- endmacro %}

{#- The CTEs of the one pass, after `with`: ranked hits, evaluated users, per-user metrics. -#}
{% macro _one_pass(plan) -%}
with
{{ rank_metrics._ranked_hits(plan) }},
{{ rank_metrics._evaluated_users(plan) }},
{{ rank_metrics._user_metrics(plan) }}
{%- endmacro %}
