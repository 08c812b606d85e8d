{#- Gates on a metric table already built (evaluate's or evaluate_over_time's rows: metric, k,
    value, n_users, and over time period and complete), which read it and compute nothing again.
    Each failing row is also logged in dbt's own output, in words, beside dbt's "Got n results". -#}

{#- The columns of a built metric table, checked to be a metric table's (`needed`). -#}
{% macro _metric_table_columns(gate, model, needed) %}
    {%- set columns = rank_metrics._relation_columns(model, 'model') -%}
    {%- if columns is none -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ gate ~ ": the model must be a table or view (evaluate's or evaluate_over_time's rows), whose columns can be looked up") }}
    {%- endif -%}
    {%- set names = columns | map(attribute='name') | list -%}
    {%- for name in needed if name not in names -%}
        {%- if gate == 'metric_at_least' -%}
        {{ exceptions.raise_compiler_error("rank_metrics: truth is required for metric_at_least on a predictions model (truth: ref('purchases')); "
            ~ "without truth the model must be a metric table built by evaluate or evaluate_over_time, and it has no column "
            ~ rank_metrics._shown(name) ~ " (its columns: " ~ names | join(', ') ~ ")") }}
        {%- endif -%}
        {#- the first needed column is the period's, which the table may name otherwise (period='day') -#}
        {%- set named = " (name the table's period column with period:, as in period: day)" if name == needed[0] else "" -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ gate ~ ": the model has no column " ~ rank_metrics._shown(name) ~ named
            ~ "; the gate judges a metric table built by evaluate_over_time (its columns: " ~ names | join(', ') ~ ")") }}
    {%- endfor -%}
    {{ return(columns) }}
{% endmacro %}

{#- Logs each row a gate's query finds, when the test runs, in words: `columns` names its first
    columns, in order; with `problem`, its last column says what is wrong. -#}
{% macro _log_failures(gate, sql, columns, problem=false) %}
    {%- if not (execute and rank_metrics._data_checks_run()) -%}{{ return('') }}{%- endif -%}
    {%- set found = run_query(sql) -%}
    {%- for row in found.rows -%}
        {%- set said = [] -%}
        {#- by position: Snowflake names the columns in upper case -#}
        {#- a row that says what is missing has no values to name (not "period None, model None") -#}
        {%- for name in columns -%}
            {%- if not (problem and row[loop.index0] is none) -%}{%- do said.append(name ~ ' ' ~ rank_metrics._number_shown(row[loop.index0])) -%}{%- endif -%}
        {%- endfor -%}
        {{ log("rank_metrics: " ~ gate ~ " failed: " ~ said | join(', ') ~ (': ' if problem and said else '') ~ (row[-1] if problem else ''), info=true) }}
    {%- endfor -%}
{% endmacro %}

{#- metric_at_least on a built metric table (no truth given): fails for each row of `metric` at
    each k whose value is below min_value, and, as the gate with truth does, where there is no
    value to judge: a row with no evaluated user or no value, or no row of the metric at that k
    at all (a k or metric the table was not built with would otherwise pass unjudged). Over time
    only complete periods are judged (a period without labels yet has n_users 0), and under `dbt
    build --empty` only values. Its rows: the table's columns (NULL where it has no row), then
    `problem`. -#}
{% macro _metric_table_at_least(model, k, metric, min_value) %}
    {%- set columns = rank_metrics._metric_table_columns('metric_at_least', model, ['metric', 'k', 'value', 'n_users']) -%}
    {%- set names = columns | map(attribute='name') | list -%}
    {%- set cutoff_free = metric in (rank_metrics._metric_names(cutoff_free_only=true) | trim).split(' ') -%}
    {%- set k_list = [none] if cutoff_free else ([k] if k is number else k) -%}
    {%- set at_k = (' with k NULL (it takes no k)' if cutoff_free else ' at k ') -%}
    {%- set sql -%}
    select rm_t.*,
        case when rm_t.metric is null then {{ rank_metrics.string_literal('the table has no row of metric ' ~ metric ~ at_k) }}{{ '' if cutoff_free else ' || cast(rm_wanted.k as ' ~ rank_metrics.type_string() ~ ')' }}
                 || {{ rank_metrics.string_literal(', so there is no value to judge (is it built with this metric and k?)') }}
            when rm_t.n_users = 0 or rm_t.value is null then {{ rank_metrics.string_literal('no evaluated user, so there is no value to judge') }}
            else {{ rank_metrics.string_literal('below min_value') }} end as problem
    from (
        {%- for one in k_list %}
        select {{ 'cast(null as integer)' if one is none else one | int }} as k{{ ' union all' if not loop.last }}
        {%- endfor %}
    ) as rm_wanted
    left join {{ rank_metrics._aliasable(model) }} as rm_t
        on rm_t.metric = {{ rank_metrics.string_literal(metric) }} and {{ 'rm_t.k is null' if cutoff_free else 'rm_t.k = rm_wanted.k' }}
    {#- (not under dbt build --empty, whose tables are empty on purpose, as the gate with truth) #}
    where {{ 'rm_t.metric is null or ' if not flags.EMPTY }}(({{ 'rm_t.n_users = 0 or rm_t.value is null or ' if not flags.EMPTY }}rm_t.value < {{ rank_metrics._number_literal(min_value, 'min_value') }})
            {%- if 'complete' in names %} and rm_t.complete{% endif %})
    {%- endset -%}
    {%- do rank_metrics._log_failures('metric_at_least', sql, names[:names.index('value') + 1], problem=true) -%}
    {{ return(sql) }}
{% endmacro %}

{#- The trend gate (SPEC §8) on evaluate_over_time's table (the query: _trend_drops), failing
    with a row for each group, metric and k whose latest complete period dropped significantly. -#}
{% test no_significant_drop(model, periods=7, alpha=0.01, min_drop=0, period='period') %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {%- for name, value, ok in [('periods', periods, periods is number and periods is not boolean and periods == periods | int and periods >= 1),
                                ('alpha', alpha, alpha is number and alpha is not boolean and 0 < alpha < 1),
                                ('min_drop', min_drop, min_drop is number and min_drop is not boolean and min_drop >= 0)] if not ok -%}
        {{ exceptions.raise_compiler_error("rank_metrics: no_significant_drop: " ~ name ~ " must be "
            ~ {'periods': 'a whole number, 1 or more (periods: 7)', 'alpha': 'a number between 0 and 1 (alpha: 0.01)', 'min_drop': 'a number, 0 or more (min_drop: 0.01)'}[name]
            ~ "; got " ~ rank_metrics._shown(value)) }}
    {%- endfor -%}
    {%- set columns = rank_metrics._metric_table_columns('no_significant_drop', model, [period, 'metric', 'k', 'value', 'std_error', 'n_users', 'complete']) -%}
    {%- set sql = rank_metrics._trend_drops(rank_metrics._aliasable(model), columns, periods, alpha, min_drop, period) -%}
    {%- set groups = (rank_metrics._table_groups(columns, period) | trim).split('\n') | reject('equalto', '') | list -%}
    {%- do rank_metrics._log_failures('no_significant_drop', sql, groups + ['metric', 'k', period, 'value', 'base', 'z', 'p_value']) -%}
    {{ sql }}
{% endtest %}
