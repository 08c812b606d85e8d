{#- Quality over time (SPEC §8): evaluate per period. Predictions carry a period column (the day a
    list was served); labels (truth) a time column (a timestamp, or a date: its midnight). The
    truth of a user for period d is the items labelled at times t with
    start(d) <= t < start(d) + window days, and each (period, group) is evaluated as evaluate
    evaluates that period's lists against that window's labels, with the same options.
    Renders a row per period, group, metric and k: <period>, <by columns>, metric, k, value,
    std_error, ci_low, ci_high, n_users, complete (as_of >= start(d) + window; as_of defaults to
    the latest label time), and labels_loaded_through (the latest load time of the period's
    labels) when loaded_at names the labels' load-time column. A period or group with lists and
    no evaluated user (no labels yet, under users='truth') is a row with n_users 0 and no value.
    `previous`: the relation this query built before (an incremental model's own table): only
    the periods it lacks, holds as incomplete, or whose window has labels loaded after it saw
    them are computed. -#}

{% macro default__evaluate_over_time(predictions, truth, k) -%}
    {{ rank_metrics._evaluate_over_time(predictions, truth, k, kwargs) }}
{%- endmacro %}

{#- evaluate_over_time's own arguments, with their defaults, checked, into the dict `given`
    (period, time, window, as_of, loaded_at, previous and the quoted columns), popped from
    `options` (the rest is evaluate's). A macro returns only text in plain Jinja. -#}
{% macro _over_time_arguments(given, options) %}
    {%- do rank_metrics._over_time_defaults(options) -%}
    {%- for name in ['period', 'time', 'window', 'as_of', 'loaded_at', 'previous'] -%}
        {%- do given.update({name: options.pop(name, none)}) -%}
    {%- endfor -%}
    {%- for name in ['period', 'time'] + (['loaded_at'] if given.loaded_at is not none else []) -%}
        {%- if given[name] is not string or given[name] | trim == '' -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention(name, given[name]) ~ " must name a column ("
                ~ {'period': "predictions' column of the day a list was served", 'time': "truth's column of the time of a label",
                   'loaded_at': "truth's column of the time a label was loaded"}[name] ~ "); got " ~ rank_metrics._shown(given[name])) }}
        {%- endif -%}
    {%- endfor -%}
    {#- at most a hundred years: a day count past the engines' intervals and timestamps (10^11 days)
        was a raw ConversionException (a user's trial) -#}
    {%- if given.window is not number or given.window is boolean or given.window != given.window | int or given.window < 1
          or given.window > 36500 -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('window', given.window) ~ " must be a whole number of days from 1 to 36500 (window=7: labels up to 7 days from the start of the period); got "
            ~ rank_metrics._shown(given.window)) }}
    {%- endif -%}
    {%- for name in ['by', 'truth_by'] -%}
        {%- set names = options.get(name) or [] -%}
        {%- if given.period in ([names] if names is string else names) -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention(name, options.get(name)) ~ " names the period column " ~ rank_metrics._shown(given.period)
                ~ ", which evaluate_over_time groups by already: leave it out of " ~ name) }}
        {%- endif -%}
    {%- endfor -%}
    {%- do given.update({'window': given.window | int, 'as_of_sql': rank_metrics._timestamp_literal(given.as_of, 'as_of') if given.as_of is not none else none,
                         'period_column': rank_metrics.quote_identifier(given.period), 'time_column': rank_metrics.quote_identifier(given.time),
                         'loaded_column': rank_metrics.quote_identifier(given.loaded_at) if given.loaded_at is not none else none}) -%}
{% endmacro %}

{#- evaluate_over_time's defaults, set in `options` where not given: the data checks (which read
    the period and time columns) and the dbt layer see the columns the query reads. -#}
{% macro _over_time_defaults(options) %}
    {%- for name, default in [('period', 'period'), ('time', 'label_time'), ('window', 7)] if name not in options -%}
        {%- do options.update({name: default}) -%}
    {%- endfor -%}
{% endmacro %}

{#- A date or time as a timestamp literal: a date or datetime (YAML's 2024-03-08, Python's), or
    text spelt as one (digits and - : . T and spaces only, else an error naming `argument`). -#}
{% macro _timestamp_literal(value, argument) -%}
    {%- if value is string -%}
        {#- a namespace: a plain set inside a for loop is gone after it (every text was refused, a
            user's trial in dbt; Python passes a datetime) -#}
        {%- set left = namespace(over=value | trim) -%}
        {%- for character in '0123456789-:. T' -%}{%- set left.over = left.over | replace(character, '') -%}{%- endfor -%}
        {%- if left.over or value | trim | length < 10 or (value | trim)[4:5] != '-' -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention(argument, value) ~ " must be a date or a time ('2024-03-08' or '2024-03-08 00:00:00'); got " ~ rank_metrics._shown(value)) }}
        {%- endif -%}
        cast({{ rank_metrics.string_literal(value | trim | replace('T', ' ')) }} as timestamp)
    {%- elif value.strftime is defined -%}
        cast({{ rank_metrics._literal(value, argument) }} as timestamp)
    {%- else -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention(argument, value) ~ " must be a date or a time ('2024-03-08' or '2024-03-08 00:00:00'); got " ~ rank_metrics._shown(value)) }}
    {%- endif -%}
{%- endmacro %}

{#- The type a period or time column must have: a date or a timestamp; '' when it has one (or
    its type is not known), else the sentence that says what it is. -#}
{% macro _time_type_problem(columns, name, argument, table) -%}
    {%- set data_type = rank_metrics._column_type(columns, name) | trim -%}
    {%- set lowered = data_type | lower -%}
    {%- if columns is not none and not (columns | selectattr('name', 'equalto', name) | list) -%}
        column {{ name }} {{ rank_metrics._mention(argument, name, 'argument') }} is not in {{ table }}; its columns are: {{ columns | map(attribute='name') | join(', ') }}
    {%- elif data_type and not lowered.startswith(('date', 'timestamp', 'time stamp')) -%}
        column {{ name }} {{ rank_metrics._mention(argument, name, 'argument') }} of {{ table }} is {{ data_type }}; {{ argument }} values must be dates or timestamps
    {%- endif -%}
{%- endmacro %}

{#- The labels of each period's window, as the truth evaluate reads: truth's columns (but a
    column named as the period, replaced), and the period, for each period of predictions
    that `periods` (SQL of a relation of rm_period, or none for every one) lists. -#}
{% macro _window_truth(truth, over_time, truth_columns, periods) -%}
    {%- set start = 'cast(rm_d.rm_period as timestamp)' -%}
    {%- set at = 'cast(rm_l.' ~ over_time.time_column ~ ' as timestamp)' -%}
(
    select {% if truth_columns is not none -%}
        {%- for column in truth_columns if column.name != over_time.period %}rm_l.{{ rank_metrics.quote_identifier(column.name) }}, {% endfor -%}
    {%- else %}rm_l.*, {% endif -%}
        rm_d.rm_period as {{ over_time.period_column }}
    from {{ truth }} as rm_l
    inner join {{ periods }} as rm_d
        on {{ at }} >= {{ start }} and {{ at }} < {{ rank_metrics.days_after(start, over_time.window) }}
)
{%- endmacro %}

{% macro _evaluate_over_time(predictions, truth, k, options) %}
{%- set options = dict(options) -%}
{%- set over_time = {} -%}
{%- do rank_metrics._over_time_arguments(over_time, options) -%}
{%- for name, columns, table in [('period', options.get('predictions_columns'), 'predictions'), ('time', options.get('truth_columns'), 'truth'),
                                 ('loaded_at', options.get('truth_columns') if over_time.loaded_at is not none else none, 'truth')] -%}
    {%- set problem = rank_metrics._time_type_problem(columns, over_time[name], name, table) | trim -%}
    {%- if problem -%}{{ exceptions.raise_compiler_error("rank_metrics: " ~ problem) }}{%- endif -%}
{%- endfor -%}
{%- set by = options.pop('by', none) -%}
{%- set by = [] if by is none else ([by] if by is string else by | list) -%}
{%- set truth_by = options.pop('truth_by', none) -%}
{%- set truth_by = none if truth_by is none else [over_time.period] + ([truth_by] if truth_by is string else truth_by | list) -%}
{%- set period = over_time.period_column -%}
{#- the periods to compute: every one of predictions, or those `previous` does not hold as it
    would now (missing, incomplete, or with labels loaded since) -#}
{%- set periods = rank_metrics._periods_to_recompute(predictions, truth, over_time, options.get('truth_columns'), by) if over_time.previous is not none
                  else rank_metrics._periods_of(predictions, period) -%}
{%- set predictions_columns = options.get('predictions_columns') -%}
{%- set period_type = rank_metrics._column_type(predictions_columns, over_time.period) | trim -%}
{%- set truth_columns = options.get('truth_columns') -%}
{%- set window_columns = none if truth_columns is none else (truth_columns | rejectattr('name', 'equalto', over_time.period) | list) + [{'name': over_time.period, 'data_type': period_type or 'date'}] -%}
{%- set window_truth = rank_metrics._window_truth(truth, over_time, truth_columns, periods) -%}
{%- set evaluated = dict(options, by=[over_time.period] + by, truth_by=truth_by, truth_columns=window_columns) -%}
{%- set plan = {} -%}
{%- do rank_metrics._plan(plan, predictions, window_truth, k, **evaluated) -%}
{%- set groups = [period] + plan.by[1:] -%}
{%- set start = 'cast(g.' ~ period ~ ' as timestamp)' -%}
{{ rank_metrics._query_header('evaluate_over_time', plan, {'period': over_time.period, 'time': over_time.time, 'window': over_time.window, 'as_of': over_time.as_of | string if over_time.as_of is not none else none}) }}
select {% for column in groups %}g.{{ column }}, {% endfor %}r.metric, r.k, e.value, e.std_error, e.ci_low, e.ci_high,
    coalesce(e.n_users, 0) as n_users,
    case when a.rm_as_of >= {{ rank_metrics.days_after(start, over_time.window) }} then true else false end as complete
    {%- if over_time.loaded_at is not none %},
    w.rm_loaded as labels_loaded_through
    {%- endif %}
from (
    -- every period and group with lists, so that one without an evaluated user has its rows
    select distinct {% for column in groups %}rm_p.{{ column }}{{ ', ' if not loop.last }}{% endfor %}
    from {{ predictions }} as rm_p
    {%- if over_time.previous is not none %}
    where rm_p.{{ period }} in (select rm_period from {{ periods }} as rm_c)
    {%- endif %}
) as g
cross join (
    {#- each k's metrics, then the cutoff-free ones with k NULL (the plan's slots) #}
    {%- for slot in plan.slots %}
    select cast({{ 'null' if slot.k is none else slot.k }} as bigint) as k, {{ rank_metrics.string_literal(slot.metric) }} as metric{{ ' union all' if not loop.last }}
    {%- endfor %}
) as r
cross join (
    {%- if over_time.as_of_sql is not none %}
    select {{ over_time.as_of_sql }} as rm_as_of
    {%- else %}
    -- as of the latest label: a period is complete once labels are seen past its window
    select max(cast(rm_l.{{ over_time.time_column }} as timestamp)) as rm_as_of from {{ truth }} as rm_l
    {%- endif %}
) as a
{%- if over_time.loaded_at is not none %}
left join (
    -- each period's latest label load time: an incremental run computes the period again when a
    -- label of its window is loaded after it
    {{ rank_metrics._latest_load(window_truth, over_time) }}
) as w
    on w.rm_period = g.{{ period }}
{%- endif %}
left join (
{#- the window's labels once, as a CTE of evaluate's query, which reads them in several places -#}
{{ rank_metrics._evaluate(predictions, 'rm_window_truth', k, dict(evaluated, metrics=plan.metrics), ctes=[('rm_window_truth', window_truth)]) }}
) as e
    on {% for column in groups %}e.{{ column }} = g.{{ column }} and {% endfor %}{{ rank_metrics._same_k(plan, 'e', 'r') }} and e.metric = r.metric
{%- endmacro %}

{#- The periods of predictions, a relation of rm_period. -#}
{% macro _periods_of(predictions, period) -%}
    (select distinct rm_p.{{ period }} as rm_period from {{ predictions }} as rm_p)
{%- endmacro %}

{#- Each period's latest label load time (rm_period, rm_loaded) from its window's labels. -#}
{% macro _latest_load(window_truth, over_time) -%}
    select rm_w.{{ over_time.period_column }} as rm_period, max(cast(rm_w.{{ over_time.loaded_column }} as timestamp)) as rm_loaded
    from {{ window_truth }} as rm_w
    group by rm_w.{{ over_time.period_column }}
{%- endmacro %}

{#- The periods of predictions to compute again, a relation of rm_period: those `previous` (the
    table built before) lacks or holds as incomplete, those with lists of a group (`by`'s
    values, a model say) that `previous` has no row of for the period (a model's lists added
    for past periods: a user's trial found them left out), and (with loaded_at) those whose
    window has a label loaded after the latest that `previous` saw for it. Joins only: Spark
    refuses a correlated subquery whose condition is not an equality. -#}
{% macro _periods_to_recompute(predictions, truth, over_time, truth_columns, by=[]) -%}
    {%- set period = over_time.period_column -%}
    {%- set groups = [period] -%}{%- for name in by %}{% do groups.append(rank_metrics.quote_identifier(name)) %}{% endfor -%}
(
    select rm_d.rm_period
    from {{ rank_metrics._periods_of(predictions, period) }} as rm_d
    left join (
        select rm_b.{{ period }} as rm_period, min(case when rm_b.complete then 1 else 0 end) as rm_complete
            {%- if over_time.loaded_at is not none %}, max(rm_b.labels_loaded_through) as rm_through{% endif %}
        from {{ over_time.previous }} as rm_b
        group by rm_b.{{ period }}
    ) as rm_b
        on rm_b.rm_period = rm_d.rm_period
    {%- if over_time.loaded_at is not none %}
    left join (
        {{ rank_metrics._latest_load(rank_metrics._window_truth(truth, over_time, truth_columns, rank_metrics._periods_of(predictions, period)), over_time) }}
    ) as rm_n
        on rm_n.rm_period = rm_d.rm_period
    {%- endif %}
    where rm_b.rm_period is null or rm_b.rm_complete = 0
    {%- if over_time.loaded_at is not none %}
        or rm_n.rm_loaded > rm_b.rm_through or (rm_b.rm_through is null and rm_n.rm_loaded is not null)
    {%- endif %}
    {%- if by %}
    union
    select rm_g.{{ period }}
    from (select distinct {% for column in groups %}rm_p.{{ column }}{{ ', ' if not loop.last }}{% endfor %} from {{ predictions }} as rm_p) as rm_g
    left join (select distinct {% for column in groups %}rm_h.{{ column }}{{ ', ' if not loop.last }}{% endfor %} from {{ over_time.previous }} as rm_h) as rm_h
        on {% for column in groups %}rm_h.{{ column }} = rm_g.{{ column }}{{ ' and ' if not loop.last }}{% endfor %}
    where rm_h.{{ period }} is null
    {%- endif %}
)
{%- endmacro %}
