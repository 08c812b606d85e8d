{#- The shapes of the metric queries, shared by every public metric macro: the one pass
    (_ranked_hits, _evaluated_users, _user_sums) and the select that reads it. `options` holds
    the keyword arguments of the public macro (column names, options, column lists). A metric
    at k averages one row per user (or hit pattern) that holds every k (_user_values), then
    spreads the few group rows to a row per k; evaluate does too, but for Spark (metric_rows),
    and per-user output spreads users to a row per k. -#}

{#- One metric per group and k: <by columns>, k, <metric>_at_k, n_users. -#}
{% macro _metric_at_k(metric, predictions, truth, k, options) %}
{#- a cutoff-free metric (R-precision) is given no k: its one value per group has k NULL, and
    the plan, which numbers positions up to a largest k, is made with k 1 -#}
{%- set macro = metric if k is none else metric ~ '_at_k' -%}
{%- set options = dict(options) -%}
{%- if k is none %}{% do options.pop('k', none) %}{% endif -%}
{%- do rank_metrics._macro_arguments(macro, options) -%}
{%- set plan = {} -%}
{%- do rank_metrics._plan(plan, predictions, truth, 1 if k is none else k, **dict(options, metrics=[metric])) -%}
{%- do rank_metrics._use_hit_patterns(plan) -%}
{%- do plan.update({'takes_k': k is not none}) -%}
{{ rank_metrics._query_header(macro, plan) }}
{{- rank_metrics._one_pass(plan) }},
{{ rank_metrics._user_values(plan) }},
{{ rank_metrics._group_means(plan, false) }}
{%- if k is none %}
select {{ rank_metrics._column_prefix(plan.by, 'g') }}cast(null as bigint) as k,
    {{ rank_metrics._reported_mean(plan, 'g.rm_mean_' ~ metric) }} as {{ plan.group_columns[metric] }},
    {{ 'g.rm_n_users_' ~ metric ~ ' as n_users' if metric in plan.counted else 'g.n_users' }}
from rm_group_means as g
{%- else %},
{{ rank_metrics._ks(plan) }}
select {{ rank_metrics._column_prefix(plan.by, 'g') }}ks.k,
    {{ rank_metrics._reported_mean(plan, 'case' ~ rank_metrics._means_by_k(plan, metric) ~ ' end') }} as {{ plan.group_columns[metric] }},
    {{ 'case' ~ rank_metrics._means_by_k(plan, metric, 'g.rm_n_users_') ~ ' end as n_users' if metric in plan.counted else 'g.n_users' }}
from rm_group_means as g
cross join rm_ks as ks
{%- endif %}
{%- endmacro %}

{#- ` when ks.k = <k> then g.rm_mean_<metric>_<i>` for each k: the group's mean at rm_ks' k (or
    another of its columns by k, named `prefix` and the metric). -#}
{% macro _means_by_k(plan, metric, prefix='g.rm_mean_') -%}
    {%- for k in plan.ks %} when ks.k = {{ k }} then {{ prefix }}{{ metric }}_{{ loop.index }}{% endfor -%}
{%- endmacro %}

{#- Every requested metric per evaluated user and k. -#}
{% macro _evaluate_users(predictions, truth, k, options, macro='evaluate_users') %}
{%- do rank_metrics._macro_arguments('evaluate_users', options) -%}
{%- set plan = {} -%}
{%- do rank_metrics._plan(plan, predictions, truth, k, **options) -%}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{{ rank_metrics._query_header(macro, plan) }}
{{- rank_metrics._one_pass(plan) }},
{{ rank_metrics._user_metrics(plan) }}
select {{ by }}rm_user as {{ plan.user }}, k,
    {%- for metric in plan.metrics %} {{ plan.metric_columns[metric] }},{% endfor %} n_relevant, n_hits
from rm_user_metrics
{%- endmacro %}

{#- Every requested metric per group and k, a row each: <by columns>, k, metric, value, n_users,
    std_error, ci_low, ci_high (SPEC §7: the sample standard deviation over sqrt(n), NULL for
    fewer than two users; the interval value -/+ z std_error). metric_rows (an engine macro)
    averages rm_user_values into rm_metric_rows. -#}
{% macro _evaluate(predictions, truth, k, options, ctes=[]) %}
{%- do rank_metrics._macro_arguments('evaluate', options) -%}
{%- set plan = {} -%}
{%- do rank_metrics._plan(plan, predictions, truth, k, **options) -%}
{#- (name, SQL) of relations the query defines first, that predictions or truth may name -#}
{%- do plan.update({'ctes': ctes}) -%}
{%- do rank_metrics._use_hit_patterns(plan) -%}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{{ rank_metrics._query_header('evaluate', plan, {'confidence': options.get('confidence')}) }}
{{- rank_metrics._one_pass(plan) }},
{{ rank_metrics._user_values(plan) }},
rm_rows as (
    -- a row per k and metric, in the order asked, numbered (rm_slot: a number is quicker to pick
    -- by than a k and a metric's name)
    {%- for slot in plan.slots %}
    select {{ loop.index }} as rm_slot, cast({{ 'null' if slot.k is none else slot.k }} as bigint) as k, {{ rank_metrics.string_literal(slot.metric) }} as metric{{ ' union all' if not loop.last }}
    {%- endfor %}
),
{{ rank_metrics.metric_rows(plan) }}
select {{ by }}k, metric, {{ rank_metrics._reported_columns(plan) }}
from rm_metric_rows
{%- endmacro %}

{#- `case r.rm_slot when 1 then <prefix><metric>_1 ... end`: the value for rm_rows' row r (the
    plan's slots, numbered from 1) from a row with a column per slot, named `prefix` and the
    slot's value (the metric and the k's index, or the metric alone for a cutoff-free one). -#}
{% macro _by_slot(plan, prefix) -%}
    case r.rm_slot {%- for slot in plan.slots %}
            when {{ loop.index }} then {{ prefix }}{{ slot.value }}{% endfor %}
        end
{%- endmacro %}

{#- Group results count users per hit pattern where the plan's patterns suffice
    (patterns_suffice); then the metrics whose users are counted on their own (plan.counted)
    are the partial ones, or, with a cutoff-free metric beside them, every metric: its values
    are per user, stacked under the pattern rows (_user_values), each row holding either. -#}
{% macro _use_hit_patterns(plan) %}
    {%- do plan.update({'hit_patterns': plan.patterns_suffice,
                        'counted': plan.metrics if plan.patterns_suffice and plan.cutoff_free else plan.partial}) -%}
{% endmacro %}

{#- A group row's n_users for rm_rows' row r: the group's, or for a metric counted on its own
    (plan.counted: a partial one's, the users with a value) g.rm_n_users_<metric>_<i>. -#}
{% macro _n_users_by_slot(plan) -%}
    {%- if plan.counted -%}
    case r.rm_slot {%- for slot in plan.slots %}{% if slot.metric in plan.counted %}
            when {{ loop.index }} then g.rm_n_users_{{ slot.value }}{% endif %}{% endfor %}
            else g.n_users end
    {%- else -%}
    g.n_users
    {%- endif -%}
{%- endmacro %}

{#- CTE rm_group_means: per group, every requested metric's mean at every k,
    rm_mean_<metric>_<i>, with its standard error rm_std_error_<metric>_<i> (SPEC §7: the sample
    standard deviation over sqrt(n), NULL under two users) when std_errors is true, and n_users.
    Under hit_patterns the rows are patterns, each standing for rm_users users: the mean is
    weighted, and the spread is summed around it (a window over the few pattern rows), as
    stddev_samp would over the users. A metric counted on its own (plan.counted: a partial one,
    NULL for the users it does not evaluate) is weighted by its rows with a value, whose users
    rm_n_users_<metric>_<i> counts. -#}
{% macro _group_means(plan, std_errors) %}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
{%- set base = 'rm_users' if plan.hit_patterns else '1' -%}
{#- value (<metric>_<i>) -> its count: the users a row stands for, where it has a value; its
    weight in the mean: that count, times the user's own weight where the metric weights users
    unequally (_user_weight: AUC's users by their impressions), its importance -#}
{%- set counts = {} -%}
{%- set weights = {} -%}
{%- set importances = {} -%}
{%- for slot in plan.slots -%}
    {%- set count = 'case when rm_' ~ slot.value ~ ' is not null then ' ~ base ~ ' end' if slot.metric in plan.counted else base -%}
    {%- set importance = rank_metrics._user_weight(plan, slot.metric) | trim -%}
    {%- do counts.update({slot.value: count}) -%}
    {%- do weights.update({slot.value: count if not importance else 'case when rm_' ~ slot.value ~ ' is not null then ' ~ base ~ ' * ' ~ importance ~ ' end'}) -%}
    {%- do importances.update({slot.value: importance or none}) -%}
{%- endfor -%}
{%- set values = weights | list -%}
rm_group_means as (
{%- if not plan.hit_patterns and not std_errors %}
    select {{ by }}
        {%- for value in values %}
        {{ rank_metrics._weighted_mean('rm_' ~ value, none, weights[value]) if weights[value] != base else rank_metrics.mean('rm_' ~ value) }} as rm_mean_{{ value }},
        {%- endfor %}
        {{- rank_metrics._partial_counts(counts, base) }}
        cast(count(*) as bigint) as n_users
    from rm_user_values
{%- elif not std_errors %}
    select {{ by }}
        {%- for value in values %}
        {{ rank_metrics._weighted_mean('rm_' ~ value, none, weights[value]) }} as rm_mean_{{ value }},
        {%- endfor %}
        {{- rank_metrics._partial_counts(counts, base) }}
        cast(sum(rm_users) as bigint) as n_users
    from rm_user_values
{%- else %}
    {#- the spread summed around the group's mean (a window over pattern rows, or users, each of
        weight 1), not stddev_samp, whose sums in DuckDB's threads gave standard errors that
        differ in the last digits from run to run #}
    select {{ by }}
        {%- for value in values %}
        max(rm_mean_{{ value }}) as rm_mean_{{ value }},
        {{ rank_metrics._weighted_std_error('rm_' ~ value, 'rm_mean_' ~ value, weights[value], importances[value], counts[value]) }} as rm_std_error_{{ value }},
        {%- endfor %}
        {{- rank_metrics._partial_counts(counts, base) }}
        cast(sum({{ base }}) as bigint) as n_users
    from (
        {%- set group = rank_metrics._over_groups(plan.by, 'rm_users' if plan.hit_patterns else none) %}
        select v.*
            {%- for value in values %},
            {{ rank_metrics._weighted_mean('rm_' ~ value, group, weights[value]) }} as rm_mean_{{ value }}
            {%- endfor %}
        from rm_user_values as v
    ) as v
{%- endif %}
    {{ rank_metrics._group_by(plan.by) }}
)
{%- endmacro %}

{#- The columns rm_n_users_<metric>_<i> of a partial metric's values (those whose weight is not
    `base`): the users with a value. -#}
{% macro _partial_counts(weights, base) -%}
    {%- for value, weight in weights.items() if weight != base %}
        cast(coalesce(sum({{ weight }}), 0) as bigint) as rm_n_users_{{ value }},
    {%- endfor %}
{%- endmacro %}

{#- The standard error of a mean over rows that are users (SPEC §7: the sample standard
    deviation over sqrt(n), NULL under two users), an aggregate. -#}
{% macro _std_error(value) -%}
    case when count(*) >= 2 and min({{ value }}) = max({{ value }}) then cast(0 as {{ rank_metrics.type_double() }})
        when count(*) >= 2 then stddev_samp({{ value }}) / sqrt(cast(count(*) as {{ rank_metrics.type_double() }})) end
{%- endmacro %}


{#- The mean over rows that each stand for rm_users users (hit patterns), weighted by them; an
    aggregate, or a window when `over` is given (the engine's weighted_mean). -#}
{% macro _weighted_mean(value, over=none, weight='rm_users') -%}
    {{ rank_metrics.weighted_mean(value, weight, over) }}
{%- endmacro %}

{#- _std_error over such rows: the spread summed around their weighted `mean` (a column), as
    stddev_samp would over the users. With an `importance` (a user's own weight; `weight` is then
    its `count` of users times it), the standard error of a weighted mean over n users,
    sqrt(n / (n - 1) · Σ w² (x - mean)²) / Σ w, which is the one above when every w is 1. -#}
{% macro _weighted_std_error(value, mean, weight='rm_users', importance=none, count=none) -%}
    {%- set double = rank_metrics.type_double() -%}
    {%- set deviation = '(' ~ value ~ ' - ' ~ mean ~ ')' -%}
    {%- if importance -%}
    {%- set n = 'cast(sum(' ~ count ~ ') as ' ~ double ~ ')' -%}
    case when {{ n }} >= 2 then sqrt({{ n }} / ({{ n }} - 1) * {{ rank_metrics.sum_of_values(weight ~ ' * ' ~ importance ~ ' * ' ~ deviation ~ ' * ' ~ deviation, any_size=true) }})
        / cast(sum({{ weight }}) as {{ double }}) end
    {%- else -%}
    {%- set n = 'cast(sum(' ~ weight ~ ') as ' ~ double ~ ')' -%}
    case when {{ n }} >= 2 then sqrt({{ rank_metrics.sum_of_values(weight ~ ' * ' ~ deviation ~ ' * ' ~ deviation) }} / ({{ n }} - 1)) / sqrt({{ n }}) end
    {%- endif -%}
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
{%- do rank_metrics._check_ties_by_expectation(plan) -%}
with
{%- for name, sql in plan.get('ctes', []) %}
{{ name }} as {{ sql }},
{%- endfor %}
{{ rank_metrics._ranked_hits(plan) }},
{{ rank_metrics._evaluated_users(plan) }},
{{ rank_metrics._user_sums(plan) }}
{%- endmacro %}
