{#- Release gates (SPEC §7): dbt generic tests on a predictions model. Each fails the build
    with one row per offending group, which says what it scored and against what. -#}

{#- The gate's own arguments, checked with the gate's names for them (the macros it calls
    would name theirs: `metrics`, `evaluate`). -#}
{% macro _gate_arguments(gate, metric, k, options, taken_elsewhere, own) %}
    {#- a misspelt or misplaced argument first: `metrics: [ndcg]` or `min_val: 0.2` would
        otherwise be reported as a missing metric or min_value -#}
    {%- for name, where in taken_elsewhere.items() if options.get(name) is not none -%}
        {%- do exceptions.raise_compiler_error("rank_metrics: " ~ gate ~ " takes no " ~ name ~ " (" ~ where ~ ")") -%}
    {%- endfor -%}
    {%- set known = (rank_metrics._option_names() | replace(',', ' ')).split() + ['validate'] -%}
    {%- for name in options | list | sort if name not in known -%}
        {%- set nearest = rank_metrics._nearest_name(name, known + ['truth', 'metric'] + (own | replace(',', ' ') | replace(' and ', ' ')).split()) -%}
        {%- do exceptions.raise_compiler_error("rank_metrics: " ~ gate ~ ": unknown argument " ~ rank_metrics._shown(name)
            ~ (" (did you mean " ~ rank_metrics._shown(nearest) ~ "?)" if nearest else "")
            ~ "; its arguments are truth, k, metric, " ~ own ~ " and the options of the metric macros ("
            ~ rank_metrics._option_names() ~ ", validate)") -%}
    {%- endfor -%}
    {#- k as YAML gives it: '10' in quotes is text (the metric macros' own check would not name the
        gate); a metric that takes no k (R-precision) needs none -#}
    {%- set k_problem = '' if k is none and metric in (rank_metrics._metric_names(cutoff_free_only=true) | trim).split(' ')
                        else rank_metrics._k_problem(k) -%}
    {%- if k_problem -%}
        {%- set quoted = k is string or (k is iterable and k | select('string') | list) -%}
        {%- do exceptions.raise_compiler_error("rank_metrics: " ~ gate ~ ": " ~ k_problem ~ (" (in YAML: k: 10, or k: [5, 10], unquoted)" if quoted else "")) -%}
    {%- endif -%}
    {%- set names = (rank_metrics._metric_names() | trim).split(' ') -%}
    {%- if metric is not string or metric not in names -%}
        {%- do exceptions.raise_compiler_error("rank_metrics: " ~ gate ~ ": metric must name one metric, one of "
            ~ rank_metrics._shown(names) ~ "; got " ~ (rank_metrics._shown(metric) if metric is not none else "none") ~ rank_metrics._meant(metric, names)) -%}
    {%- endif -%}
{% endmacro %}

{#- A gate's truth as a relation: YAML's `truth: purchases` (no ref()) is text, which the SQL read
    as a bare name, off the search path on PostgreSQL (the database's raw "relation does not
    exist"; a user's trial). A text names a table or view ('name' or 'schema.name', in the
    target's schema when none is given), looked up as dbt looks up relations. -#}
{% macro _gate_truth(gate, truth) %}
    {%- if truth is not string or not execute -%}{{ return(truth) }}{%- endif -%}
    {%- set parts = truth.split('.') -%}
    {%- set schema = parts[-2] if parts | length > 1 else target.schema -%}
    {%- set relation = adapter.get_relation(database=parts[-3] if parts | length > 2 else target.database,
                                            schema=schema, identifier=parts[-1]) -%}
    {%- if relation is none -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ gate ~ ": truth is the text " ~ rank_metrics._shown(truth)
            ~ ", and no table or view of that name is in schema " ~ schema ~ ": name a model as truth: ref('" ~ parts[-1] ~ "')") }}
    {%- endif -%}
    {{ return(relation) }}
{% endmacro %}

{#- Fails for each group (of `by`) and k whose metric is below min_value, and with a row where
    there is no value to judge, which would otherwise leave no failing row and pass: one when no
    user is evaluated at all (an empty predictions model, say), one per group of predictions
    that no user is evaluated for (under users='both', every list of a model for a user truth
    lacks), and one per group and k where a partial metric (AUC) evaluates none of its users. Not under `dbt build --empty`, whose inputs are empty on purpose (its
    checks of the data are skipped too). -#}
{% test metric_at_least(model, truth=none, k=none, metric=none, min_value=none, by=none) %}
    {#- its arguments are checked when the test runs, not while dbt parses (_while_parsing) -#}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {%- do rank_metrics._gate_arguments('metric_at_least', metric, k, kwargs, {
        'metrics': 'a gate judges one metric: metric', 'baseline': 'no_significant_regression takes it',
        'alpha': 'no_significant_regression takes it', 'min_users': 'no_significant_regression takes it',
        'test': 'a compare argument', 'correction': 'a compare argument',
        'confidence': 'an evaluate argument'}, 'min_value, by') -%}
    {#- the plan numbers positions up to a largest k: 1 for a metric that takes none #}
    {%- set k = 1 if k is none else k -%}
    {%- if min_value is not number or min_value is boolean -%}
        {{ exceptions.raise_compiler_error("rank_metrics: metric_at_least: min_value must be a number (min_value: 0.3); got "
            ~ (rank_metrics._shown(min_value) if min_value is not none else "none")) }}
    {%- endif -%}
    {#- without truth, the model is a metric table already built: its rows are judged (table_gates.sql) -#}
    {%- if truth is none -%}
    {{ rank_metrics._metric_table_at_least(model, k, metric, min_value) }}
    {%- else -%}
    {%- set truth = rank_metrics._gate_truth('metric_at_least', truth) -%}
    {%- set options = dict(kwargs, by=by, metrics=[metric]) -%}
    {%- set by_names = [] if by is none else ([by] if by is string else by) -%}
    {%- set by_columns = [] -%}
    {%- for name in by_names -%}{%- do by_columns.append(rank_metrics.quote_identifier(name)) -%}{%- endfor -%}
    select {% for column in by_columns %}rm_values.rm_group_{{ loop.index }} as {{ column }}, {% endfor -%}
        rm_values.k, rm_values.metric, rm_values.value, rm_values.n_users, rm_values.std_error,
        rm_values.ci_low, rm_values.ci_high, {{ rank_metrics._number_literal(min_value, 'min_value') }} as min_value,
        {#- no row of evaluate: its metric is NULL (k is NULL in R-precision's rows too) #}
        case when rm_values.metric is null then
            {%- if by_columns %} case when rm_values.rm_group_listed = 1
                then {{ rank_metrics.string_literal('no user is evaluated for this ' ~ (by_names[0] if by_names | length == 1 else 'group of ' ~ by_names | join(', ')) ~ ' (' ~ rank_metrics._why_no_user_is_evaluated() ~ '), so there is no value to judge') }}
                else{% endif %} 'no user is evaluated, so there is no value to judge'{{ ' end' if by_columns }}
            {#- a partial metric (AUC) of users none of whom it evaluates #}
            when rm_values.value is null then {{ rank_metrics.string_literal('no evaluated user has both a relevant and a non-relevant item within k, so ' ~ metric ~ ' has no value to judge') }}
        end as problem
    from (select 1 as rm_one) as rm_gate
    left join (
        {%- if by_columns %}
        {#- every group of predictions, so that one no user is evaluated for has a row; evaluate's
            groups are among them (truth's values of a by column make none of their own) #}
        select rm_evaluated.*, 1 as rm_group_listed
            {%- for column in by_columns %}, rm_groups.{{ column }} as rm_group_{{ loop.index }}{% endfor %}
        from (select distinct {{ by_columns | join(', ') }} from {{ rank_metrics._aliasable(model) }} as rm_p) as rm_groups
        left join (
            {{ rank_metrics.evaluate(predictions=model, truth=truth, k=k, **options) }}
        ) as rm_evaluated
            on {% for column in by_columns %}{{ ' and ' if not loop.first }}rm_evaluated.{{ column }} = rm_groups.{{ column }}{% endfor %}
        {%- else %}
        {{ rank_metrics.evaluate(predictions=model, truth=truth, k=k, **options) }}
        {%- endif %}
    ) as rm_values
        on 1 = 1
    where rm_values.value < {{ rank_metrics._number_literal(min_value, 'min_value') }}{{ ' or rm_values.metric is null or rm_values.value is null' if not flags.EMPTY }}
    {%- endif %}
{% endtest %}

{#- Fails for each model (a value of `by`) significantly worse than the baseline at some k:
    difference < 0 with the one-sided p-value (half the two-sided t test's, normal
    approximation) below alpha, each comparison on its own (no correction). No comparison is no
    pass: a baseline with no rows (misspelt, or predictions empty) fails in compare's data
    checks; and, where those do not run (an ephemeral predictions model), the gate fails with
    one row that says so, as it does when predictions hold no model but the baseline, and with a
    row for each model that no user is evaluated for or that shares no evaluated user with the
    baseline (under users='both' or 'predictions'). Not under `dbt build --empty`, as
    metric_at_least. -#}
{% test no_significant_regression(model, truth, k=none, metric=none, by=none, baseline=none, alpha=0.05, min_users=30) %}
    {#- its arguments are checked when the test runs, not while dbt parses (_while_parsing) -#}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {%- do rank_metrics._gate_arguments('no_significant_regression', metric, k, kwargs, {
        'metrics': 'a gate judges one metric: metric', 'test': 'the gate is the one-sided t test',
        'correction': 'each model is judged on its own', 'confidence': 'an evaluate argument', 'min_value': 'metric_at_least takes it'},
        'by, baseline, alpha, min_users') -%}
    {#- the plan numbers positions up to a largest k: 1 for a metric that takes none #}
    {%- set k = 1 if k is none else k -%}
    {%- set truth = rank_metrics._gate_truth('no_significant_regression', truth) -%}
    {%- if min_users is not number or min_users is boolean or min_users < 0 or min_users != min_users | int -%}
        {{ exceptions.raise_compiler_error("rank_metrics: no_significant_regression: min_users must be a whole number of 0 or more "
            ~ "(min_users: 30); got " ~ rank_metrics._shown(min_users)) }}
    {%- endif -%}
    {%- if by is none or baseline is none -%}
        {{ exceptions.raise_compiler_error("rank_metrics: no_significant_regression: by must name the column of models and "
            ~ "baseline the model to compare with (by: model, baseline: popularity); got by " ~ (rank_metrics._shown(by) if by is not none else "none")
            ~ ", baseline " ~ (rank_metrics._shown(baseline) if baseline is not none else "none")) }}
    {%- endif -%}
    {%- if alpha is not number or alpha is boolean or not (0 < alpha < 1) -%}
        {{ exceptions.raise_compiler_error("rank_metrics: no_significant_regression: alpha must be a number between 0 and 1 "
            ~ "(alpha: 0.05); got " ~ rank_metrics._shown(alpha)) }}
    {%- endif -%}
    {%- set options = dict(kwargs, by=by, metrics=[metric], baseline=baseline, correction='none', alpha=alpha) -%}
    {#- compare's p_value is two-sided, and its significant and p_value_adjusted columns judge
        that at alpha: a failing row would say significant = 0. They are left out; the row has
        the one-sided p-value the gate judges and the alpha it judges it at. -#}
    {%- set by_name = by if by is string else by[0] -%}
    {%- set by_column = rank_metrics.quote_identifier(by_name) -%}
    {%- set baseline_literal = rank_metrics._literal(baseline, 'baseline') -%}
    {#- an ephemeral model exists only inside the test's own query: no second query can read it
        to warn or say what failed, so there every comparison is judged (min_users does not apply) -#}
    {%- set readable = rank_metrics._relation_columns(model, 'predictions') is not none
                       and rank_metrics._relation_columns(truth, 'truth') is not none -%}
    {%- set min_users = min_users if readable else 0 -%}
    {#- (it reads the data: only when the test runs, not at compile or docs generate) -#}
    {%- if readable and rank_metrics._data_checks_run() -%}{%- do rank_metrics._say_regressions(model, truth, k, options, by_name, min_users) -%}{%- endif -%}
    select rm_comparison.rm_model as {{ by_column }}, k, metric, baseline_value, value,
        difference, relative_difference, std_error, t, df, p_value as p_value_two_sided,
        p_value / 2 as p_value_one_sided, {{ rank_metrics._number_literal(alpha, 'alpha') }} as alpha, n_users, n_only_model, n_only_baseline,
        case
            when rm_gate.rm_baseline_rows = 0
                then {{ rank_metrics.string_literal('predictions has no rows with ' ~ by_name ~ ' = ' ~ rank_metrics._shown(baseline) ~ ', so nothing is compared with the baseline') }}
            when rm_comparison.rm_model is null
                then {{ rank_metrics.string_literal('predictions has no ' ~ by_name ~ ' but the baseline ' ~ rank_metrics._shown(baseline) ~ ', so nothing is compared with it') }}
            when rm_comparison.metric is null
                then {{ rank_metrics.string_literal('no user is evaluated for this ' ~ by_name ~ ' (' ~ rank_metrics._why_no_user_is_evaluated() ~ '), so nothing is compared with the baseline') }}
            when rm_comparison.n_users = 0 and rm_comparison.n_only_baseline = 0
                then {{ rank_metrics.string_literal('no user is evaluated for the baseline ' ~ rank_metrics._shown(baseline) ~ ', so nothing is compared with it') }}
            when rm_comparison.n_users = 0
                then {{ rank_metrics.string_literal('this ' ~ by_name ~ ' and the baseline share no evaluated user, so nothing is compared') }}
        end as problem
    from (
        select count(*) as rm_baseline_rows
        from {{ rank_metrics._aliasable(model) }} as rm_p
        where {{ by_column }} = {{ baseline_literal }}
    ) as rm_gate
    left join (
        {#- every model of predictions but the baseline, so that one no user is evaluated for has
            a row (compare has none for it) #}
        select rm_compared.*, rm_models.{{ by_column }} as rm_model
        from (
            select distinct {{ by_column }}
            from {{ rank_metrics._aliasable(model) }} as rm_p
            where {{ by_column }} <> {{ baseline_literal }}
        ) as rm_models
        left join (
            {{ rank_metrics.compare(predictions=model, truth=truth, k=k, **options) }}
        ) as rm_compared
            on rm_compared.{{ by_column }} = rm_models.{{ by_column }}
    ) as rm_comparison
        on rm_gate.rm_baseline_rows > 0
    where (difference < 0 and p_value / 2 < {{ rank_metrics._number_literal(alpha, 'alpha') }} and n_users >= {{ min_users | int }})
        {{- ' or rm_gate.rm_baseline_rows = 0 or rm_comparison.metric is null or rm_comparison.n_users = 0' if not flags.EMPTY }}
{% endtest %}


{#- Why a group of predictions has no evaluated user: the two ways, which a gate cannot tell
    apart without reading the tables again. -#}
{% macro _why_no_user_is_evaluated() -%}
    under users='both' every list of it is for a user truth lacks; with a by column truth has too, truth has no row of its value
{%- endmacro %}


{#- Says, in dbt's log, each model the gate finds worse than the baseline, in words beside dbt's
    "Got n results", from one query more when the gate runs (compare's rows, which the gate's own
    query reads too). A model worse on fewer than min_users paired users is not failed: a t test
    on 2 users can give p = 0.000 for a difference chance explains. It is warned of instead (an
    error under --warn-error). -#}
{% macro _say_regressions(model, truth, k, options, by_name, min_users) %}
    {%- set alpha = rank_metrics._number_literal(options.alpha, 'alpha') -%}
    {#- by position: Snowflake names the columns in upper case -#}
    {%- set found = run_query("select " ~ rank_metrics.quote_identifier(by_name) ~ ", k, metric, value, baseline_value, difference, "
        ~ "p_value / 2, n_users from (" ~ rank_metrics.compare(predictions=model, truth=truth, k=k, **options)
        ~ ") as rm_compared where difference < 0 and p_value / 2 < " ~ alpha ~ " and n_users > 0") -%}
    {%- for row in found.rows -%}
        {%- set at = (" at k " ~ row[1]) if row[1] is not none else "" -%}
        {%- if row[7] < min_users | int -%}
            {%- do exceptions.warn("rank_metrics: no_significant_regression: " ~ by_name ~ " " ~ rank_metrics._shown(row[0])
                ~ " is worse than the baseline " ~ rank_metrics._shown(options.baseline) ~ at ~ " on only "
                ~ row[7] ~ " paired users, fewer than min_users (" ~ min_users | int
                ~ "): warned, not failed, since a t test on so few users can call a chance difference significant; "
                ~ "min_users: 0 judges it") -%}
        {%- else -%}
            {%- set shown = [] -%}{%- for value in row %}{% do shown.append(rank_metrics._number_shown(value)) %}{% endfor -%}
            {{ log("rank_metrics: no_significant_regression failed: " ~ by_name ~ " " ~ rank_metrics._shown(row[0]) ~ at
                ~ ", metric " ~ row[2] ~ ": " ~ shown[3] ~ " against " ~ shown[4] ~ " for the baseline " ~ rank_metrics._shown(options.baseline)
                ~ " on " ~ shown[7] ~ " paired users (difference " ~ shown[5] ~ ", one-sided p-value " ~ shown[6]
                ~ " < alpha " ~ options.alpha ~ ")", info=true) }}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}
