{#- Paired comparison (SPEC §7): each group of the first `by` column (the models) against the
    `baseline` group, per k and metric, within each segment (the values of the other `by`
    columns, if any), from the per-user values of the one pass. A row each:
      <by columns>, k, metric, baseline_value, value, difference, relative_difference, std_error, t, df,
      p_value, p_value_adjusted, significant, n_users, n_only_model, n_only_baseline
    over the users evaluated for both (n_users); users evaluated for one side only are counted,
    never paired with zeros. The p-value is the t test's, two-sided, with the normal
    approximation 2 (1 - Phi(|t|)) (engines have no t distribution; df is beside it); the
    correction spans the family: by default the comparisons of one metric at one k across the
    models in one segment (asking for more metrics or k changes no row's adjusted p), every row
    under family='all'. A user's values pair within one segment. -#}
{% macro _compare(predictions, truth, k, options) %}
{%- do rank_metrics._macro_arguments('compare', options) -%}
{%- set comparison = {} -%}
{%- do rank_metrics._comparison_options(comparison, options) -%}
{%- set plan = {} -%}
{%- do rank_metrics._plan(plan, predictions, truth, k, **comparison.rest) -%}
{%- if plan.by | length == 0 -%}
    {{ exceptions.raise_compiler_error("rank_metrics: compare: " ~ rank_metrics._mention('by', plan.names.by) ~ " must name the column whose values are the models (baseline is one of them), then any segment columns; got none") }}
{%- endif -%}
{%- set model = plan.by[0] -%}
{#- the segments: the other by columns, within whose values models are compared -#}
{%- set segments = plan.by[1:] -%}
{%- set baseline = rank_metrics._baseline_literal(plan, comparison.baseline) -%}
{{ rank_metrics._query_header('compare', plan, {'baseline': comparison.baseline, 'test': comparison.test,
                                               'correction': comparison.correction, 'family': comparison.family,
                                               'alpha': comparison.alpha}) }}
{{- rank_metrics._one_pass(plan) }},
{{ rank_metrics._user_metrics(plan) }},
{{ rank_metrics._paired_comparison(plan, model, segments, baseline, comparison) }}
{%- endmacro %}


{#- The comparison from rm_user_metrics (a row per model, segment, user (rm_user) and k, a column
    per metric: plan.metric_columns), to the result's rows: the CTEs after it and the final
    select. plan: metrics, metric_columns, partial (the metrics whose users may have no value:
    a pair is the users with a value on both sides), cutoff_free; model and segments quoted
    column names; baseline an SQL literal. -#}
{% macro _paired_comparison(plan, model, segments, baseline, comparison) %}
{%- set each = {'m': [], 'b': [], 'p': [], 'plain': []} -%}
{%- for column in segments -%}
    {%- for alias in ['m', 'b', 'p'] -%}{%- do each[alias].append(alias ~ '.' ~ column) -%}{%- endfor -%}
    {%- do each.plain.append(column) -%}
{%- endfor -%}
{%- set segment_list = (', ' ~ each.plain | join(', ')) if segments else '' -%}
{%- set double = rank_metrics.type_double() -%}
rm_paired_users as (
    -- each user's pair, with the mean difference of the pair's model and k beside it: the spread
    -- is summed around it, not taken by stddev_samp, whose sums in DuckDB's threads gave standard
    -- errors that differ in the last digits from run to run
    select m.{{ model }}{% for column in each.m %}, {{ column }}{% endfor %}, m.k
        {%- for metric in plan.metrics %}
        {%- set column = plan.metric_columns[metric] %}
        {#- a partial metric's (AUC's) pair is the users with a value on both sides: its other
            users' values are NULL here, and their weight too #}
        {%- set both = 'm.' ~ column ~ ' is not null and b.' ~ column ~ ' is not null' %}
        {%- set weight = 'case when ' ~ both ~ ' then 1 end' if metric in plan.partial else 1 %},
        {{ 'case when ' ~ both ~ ' then b.' ~ column ~ ' end' if metric in plan.partial else 'b.' ~ column }} as rm_baseline_{{ loop.index }},{{ '\n        ' if metric in plan.partial else ' ' }}
        {{- 'case when ' ~ both ~ ' then m.' ~ column ~ ' end' if metric in plan.partial else 'm.' ~ column }} as rm_value_{{ loop.index }},
        m.{{ column }} - b.{{ column }} as rm_difference_{{ loop.index }},
        {{ rank_metrics.weighted_mean('m.' ~ column ~ ' - b.' ~ column, weight, 'over (partition by m.' ~ model ~ (', ' ~ each.m | join(', ') if segments else '') ~ ', m.k)') }} as rm_mean_difference_{{ loop.index }}
        {%- endfor %}
    from rm_user_metrics as m
    inner join rm_user_metrics as b
        on b.rm_user = m.rm_user and {{ rank_metrics._same_k(plan, 'b', 'm') }} and b.{{ model }} = {{ baseline }}
        {%- for column in segments %} and b.{{ column }} = m.{{ column }}{% endfor %}
    where m.{{ model }} <> {{ baseline }}
),
rm_paired as (
    select {{ model }}{{ segment_list }}, k,
        count(*) as rm_n
        {%- for metric in plan.metrics %},
        {%- if metric in plan.partial %}
        {%- set weight = 'case when rm_difference_' ~ loop.index ~ ' is not null then 1 end' %}
        {%- set n = 'count(rm_difference_' ~ loop.index ~ ')' %}
        {{ n }} as rm_n_{{ loop.index }},
        {{ rank_metrics.weighted_mean('rm_baseline_' ~ loop.index, weight) }} as rm_baseline_{{ loop.index }},
        {{ rank_metrics.weighted_mean('rm_value_' ~ loop.index, weight) }} as rm_value_{{ loop.index }},
        {%- else %}
        {%- set n = 'count(*)' %}
        {{ rank_metrics.mean('rm_baseline_' ~ loop.index) }} as rm_baseline_{{ loop.index }},
        {{ rank_metrics.mean('rm_value_' ~ loop.index) }} as rm_value_{{ loop.index }},
        {%- endif %}
        max(rm_mean_difference_{{ loop.index }}) as rm_difference_{{ loop.index }},
        {%- set deviation = '(rm_difference_' ~ loop.index ~ ' - rm_mean_difference_' ~ loop.index ~ ')' %}
        case when {{ n }} >= 2 then sqrt({{ rank_metrics.sum_of_values(deviation ~ ' * ' ~ deviation) }}
            / cast({{ n }} - 1 as {{ double }})) end as rm_sd_{{ loop.index }}
        {%- endfor %}
    from rm_paired_users
    group by {{ model }}{{ segment_list }}, k
),
rm_evaluated as (
    select {{ model }}{{ segment_list }}, k, count(*) as rm_n
        {%- for metric in plan.metrics if metric in plan.partial %}, count({{ plan.metric_columns[metric] }}) as rm_n_{{ metric }}{% endfor %}
    from rm_user_metrics
    group by {{ model }}{{ segment_list }}, k
),
rm_pairs as (
    -- every model against the baseline, with its counts, whether or not any user pairs up (a
    -- baseline no user is evaluated for has n_only_baseline 0: no pair, so no difference)
    select m.{{ model }}{% for column in each.m %}, {{ column }}{% endfor %}, m.k, coalesce(p.rm_n, 0) as n_users,
        m.rm_n - coalesce(p.rm_n, 0) as n_only_model, coalesce(b.rm_n, 0) - coalesce(p.rm_n, 0) as n_only_baseline
        {%- for metric in plan.metrics %},
        {%- set n = 'p.rm_n_' ~ loop.index if metric in plan.partial else 'p.rm_n' %}
        {%- if metric in plan.partial %}
        -- a partial metric's own counts: the users with a value on both sides, or on one
        coalesce({{ n }}, 0) as n_users_{{ loop.index }}, m.rm_n_{{ metric }} - coalesce({{ n }}, 0) as n_only_model_{{ loop.index }},
        coalesce(b.rm_n_{{ metric }}, 0) - coalesce({{ n }}, 0) as n_only_baseline_{{ loop.index }},
        {%- endif %}
        p.rm_baseline_{{ loop.index }}, p.rm_value_{{ loop.index }}, p.rm_difference_{{ loop.index }},
        -- differences equal but for rounding (0.6 - 0.4 and 0.4 - 0.2) have s_d = 0 (SPEC §7): no t
        case when {{ n }} >= 2 and p.rm_sd_{{ loop.index }} > {{ rank_metrics._rounding() }} then p.rm_sd_{{ loop.index }} / sqrt(cast({{ n }} as {{ double }}))
             when {{ n }} >= 2 then cast(0 as {{ double }}) end as rm_std_error_{{ loop.index }}
        {%- endfor %}
    from rm_evaluated as m
    left join rm_evaluated as b
        on {{ rank_metrics._same_k(plan, 'b', 'm') }} and b.{{ model }} = {{ baseline }}{% for column in segments %} and b.{{ column }} = m.{{ column }}{% endfor %}
    left join rm_paired as p
        on p.{{ model }} = m.{{ model }} and {{ rank_metrics._same_k(plan, 'p', 'm') }}{% for column in segments %} and p.{{ column }} = m.{{ column }}{% endfor %}
    where m.{{ model }} <> {{ baseline }}
),
rm_metric_names as (
    {%- for metric in plan.metrics %}
    select {{ rank_metrics.string_literal(metric) }} as metric{{ ' union all' if not loop.last }}
    {%- endfor %}
),
rm_differences as (
    select p.{{ model }}{% for column in each.p %}, {{ column }}{% endfor %}, p.k, n.metric,
        {%- for part in ['baseline', 'value', 'difference', 'std_error'] %}
        case {%- for metric in plan.metrics %} when n.metric = {{ rank_metrics.string_literal(metric) }} then p.rm_{{ part }}_{{ loop.index }}{% endfor %} end as {{ 'baseline_value' if part == 'baseline' else part }},
        {%- endfor %}
        {%- for part in ['n_users', 'n_only_model', 'n_only_baseline'] %}
        {%- if plan.partial %}
        case {%- for metric in plan.metrics if metric in plan.partial %} when n.metric = {{ rank_metrics.string_literal(metric) }} then p.{{ part }}_{{ plan.metrics.index(metric) + 1 }}{% endfor %} else p.{{ part }} end as {{ part }}{{ ',' if not loop.last }}
        {%- else %}{{ '\n        ' if loop.first }}p.{{ part }}{{ ', ' if not loop.last }}
        {%- endif %}
        {%- endfor %}
    from rm_pairs as p
    cross join rm_metric_names as n
    {%- if plan.cutoff_free %}
    -- the rows of a k hold the metrics of a k, those of k NULL the cutoff-free ones
    where case when n.metric in ({% for metric in plan.cutoff_free %}{{ ', ' if not loop.first }}{{ rank_metrics.string_literal(metric) }}{% endfor %}) then p.k is null else p.k is not null end
    {%- endif %}
),
rm_tests as (
    select d.*,
        case when std_error > 0 then difference / std_error end as t,
        case when n_users >= 1 then n_users - 1 end as df,
        case when std_error > 0 then {{ rank_metrics._two_sided_normal_p('abs(difference / std_error)') }}
             when std_error = 0 then case when abs(difference) <= {{ rank_metrics._rounding() }} then cast(1 as {{ double }}) else cast(0 as {{ double }}) end
        end as p_value
    from rm_differences as d
),
rm_ordered as (
    -- each p-value's place among them, smallest first, and how many there are (for the correction)
    select rm_tests.*,
        row_number() over ({{ rank_metrics._family(comparison.family, segments) }} order by case when p_value is null then 1 else 0 end, p_value, {{ model }}{{ segment_list }}, k, metric) as rm_step,
        count(p_value) over ({{ rank_metrics._family(comparison.family, segments) }}) as rm_tested
    from rm_tests
),
rm_adjusted as (
    select rm_ordered.*,
        {{ rank_metrics._adjusted_p(comparison.correction, comparison.family, segments) }} as p_value_adjusted
    from rm_ordered
)
select {{ model }}{{ segment_list }}, k, metric, baseline_value, value, difference,
    case when baseline_value <> 0 then difference / baseline_value end as relative_difference,
    std_error, t, df, p_value, p_value_adjusted,
    case when p_value_adjusted < cast({{ rank_metrics._number_literal(comparison.alpha, 'alpha') }} as {{ double }}) then 1 else 0 end as significant,
    cast(n_users as bigint) as n_users, cast(n_only_model as bigint) as n_only_model,
    cast(n_only_baseline as bigint) as n_only_baseline
from rm_adjusted
{%- endmacro %}


{#- The comparison's own arguments, checked, written into `comparison`: baseline, test,
    correction, alpha, and the rest of the options (for _plan). name: the macro's, for the messages. -#}
{% macro _comparison_options(comparison, options, name='compare') %}
    {%- set rest = dict(options) -%}
    {%- set baseline = rest.pop('baseline', none) -%}
    {%- set test = rest.pop('test', none) or 't' -%}
    {%- set correction = rest.pop('correction', none) or 'holm' -%}
    {%- set family = rest.pop('family', none) or 'metric_and_k' -%}
    {%- set alpha = rest.pop('alpha', none) -%}
    {%- set alpha = 0.05 if alpha is none else alpha -%}
    {%- if baseline is none -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ name ~ ": " ~ rank_metrics._mention('baseline') ~ " is required: the value of the by column that names the model to compare against") }}
    {%- endif -%}
    {%- if test != 't' -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ name ~ ": SQL has only the t test (" ~ rank_metrics._mention('test', 't', 'value') ~ ", its p-value the normal approximation); got "
            ~ rank_metrics._mention('test', test, 'value', "test=" ~ rank_metrics._shown(test)) ~ ": the permutation and bootstrap tests run in Python (rank_metrics." ~ name ~ ", rank-metrics " ~ ('compare' if name == 'compare' else 'beyond-accuracy --baseline') ~ ")") }}
    {%- endif -%}
    {%- if correction not in ['holm', 'bonferroni', 'none'] -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ name ~ ": " ~ rank_metrics._mention('correction', correction) ~ " must be one of 'holm', 'bonferroni', 'none'; got " ~ rank_metrics._shown(correction)) }}
    {%- endif -%}
    {%- if alpha is not number or alpha is boolean or not rank_metrics._spells_a_number(alpha) | trim or not (alpha > 0 and alpha < 1) -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ name ~ ": " ~ rank_metrics._mention('alpha', alpha) ~ " must be a number between 0 and 1; got " ~ rank_metrics._shown(alpha)) }}
    {%- endif -%}
    {%- if family not in ['metric_and_k', 'all'] -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ name ~ ": " ~ rank_metrics._mention('family', family) ~ " must be one of 'metric_and_k', 'all'; got " ~ rank_metrics._shown(family)) }}
    {%- endif -%}
    {%- do comparison.update({'baseline': baseline, 'test': test, 'correction': correction, 'family': family, 'alpha': alpha, 'rest': rest}) -%}
{% endmacro %}


{#- The baseline as an SQL literal for the one by column, refused when its kind cannot match the
    column's type (a number against a text column, text against a numeric one): the engine's own
    error would be a failed cast inside the query. Text that spells a plain number (the command
    line's --baseline 2) is that number for a numeric column. -#}
{% macro _baseline_literal(plan, baseline) -%}
    {%- set name = plan.names.by[0] -%}
    {%- set data_type = plan.by_types.get(name) -%}
    {%- set family = rank_metrics._type_family(data_type) if data_type is not none else none -%}
    {%- set is_text = baseline is string -%}
    {%- set is_number = baseline is number and baseline is not boolean -%}
    {%- set numeric_column = family in ['number', 'floating point'] -%}
    {%- if numeric_column and is_text and rank_metrics._spells_a_number(baseline | trim, exponent=false) | trim -%}
    ({{- baseline | trim -}})
    {%- elif is_text and family in ['boolean', 'bool'] -%}
        {#- the texts DuckDB, PostgreSQL and Spark all cast to a boolean, as Python's compare reads them -#}
        {%- set spelt = baseline | trim | lower -%}
        {%- if spelt in ['true', 't', 'yes', 'y', '1'] -%}true
        {%- elif spelt in ['false', 'f', 'no', 'n', '0'] -%}false
        {%- else -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('baseline', baseline) ~ " " ~ rank_metrics._shown(baseline) ~ " is text, but by column " ~ name ~ " is "
            ~ data_type ~ ": give the baseline as true or false") }}
        {%- endif -%}
    {%- elif is_text and family is not none and (family.startswith('date') or family.startswith('timestamp'))
              and not rank_metrics._spells_a_date(baseline | trim) | trim -%}
        {#- the engine's own failed cast, inside the data checks' query, before (a new user's trial) -#}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('baseline', baseline) ~ " " ~ rank_metrics._shown(baseline) ~ " is text, but by column " ~ name ~ " is "
            ~ data_type ~ ": give the baseline as a date, such as '2024-01-02', one of the column's values") }}
    {%- elif baseline is boolean and family is not none and family not in ['boolean', 'bool'] -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('baseline', baseline, 'word') ~ " " ~ rank_metrics._shown(baseline) ~ " is a boolean, but by column " ~ name ~ " is "
            ~ data_type ~ ": give the baseline as one of the column's values") }}
    {%- elif (family == 'string' and is_number) or (numeric_column and is_text) -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('baseline', baseline, 'name' if is_text else 'word') ~ " " ~ rank_metrics._shown(baseline)
            ~ " is " ~ ('a number' if is_number else 'text')
            ~ ", but by column " ~ name ~ " is " ~ data_type ~ ": give the baseline as " ~ ('text, ' ~ rank_metrics._shown(baseline | string) if is_number else 'a number')
            ~ ", one of the column's values") }}
    {%- elif data_type is not none and rank_metrics._holds_no_single_value(data_type) | trim -%}
        {#- a struct, list, map or bytes column met the baseline's literal as the engine's raw type
            error (a user's trial) -#}
        {{ exceptions.raise_compiler_error("rank_metrics: compare: " ~ rank_metrics._mention('by', name, 'word') ~ " column " ~ name ~ " is " ~ data_type ~ ", and a baseline is a "
            ~ "text, a number, a boolean or a date, which a value of this type cannot be compared with: compare by a column of "
            ~ "one of those types (cast it to text, say)") }}
    {%- elif is_text and data_type == 'USER-DEFINED' -%}
        {#- a PostgreSQL enum: a literal of no type, read as its label -#}
        {{- rank_metrics.untyped_string_literal(baseline) -}}
    {%- else -%}
    {{- rank_metrics._literal(baseline, 'baseline') -}}
    {%- endif -%}
{%- endmacro %}


{#- 'true' for a type whose values are structs, lists, maps or bytes (DuckDB's, PostgreSQL's and
    Spark's spellings), which no baseline literal equals. -#}
{% macro _holds_no_single_value(data_type) -%}
    {%- set lowered = data_type | string | lower | trim -%}
    {{- 'true' if lowered.startswith(('struct', 'array', 'map', 'list<', 'row(', 'union(')) or lowered.endswith(']')
                  or lowered in ['blob', 'binary', 'bytea', 'varbinary', 'bytes', 'user-defined[]'] else '' -}}
{%- endmacro %}


{#- 'true' when text begins as a date does, YYYY-MM-DD (the engines read what may follow). -#}
{% macro _spells_a_date(text) -%}
    {{- 'true' if text | length >= 10 and text[0:4].isdigit() and text[4] == '-' and text[5:7].isdigit() and text[7] == '-'
                  and text[8:10].isdigit() else '' -}}
{%- endmacro %}


{#- A value of a by column as an SQL literal: text quoted, numbers as they are. -#}
{% macro _literal(value, argument) -%}
    {%- if value is string -%}{{ rank_metrics.string_literal(value) }}
    {%- elif value is boolean -%}{{ 'true' if value else 'false' }}
    {%- elif value is number -%}{{ rank_metrics._number_literal(value, argument) }}
    {#- a date or a time (YAML reads baseline: 2024-01-02 as a date; Python's datetime, pandas'
        Timestamp), as the cast of its text every engine reads -#}
    {%- elif value.hour is defined and value.strftime is defined -%}cast({{ rank_metrics.string_literal(value.strftime('%Y-%m-%d %H:%M:%S.%f')) }} as timestamp)
    {%- elif value.year is defined and value.strftime is defined -%}cast({{ rank_metrics.string_literal(value.strftime('%Y-%m-%d')) }} as date)
    {%- else -%}{{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention(argument, value) ~ " must be a text, a number or a date (a value of the by column); got " ~ rank_metrics._shown_as_given(value)) }}
    {%- endif -%}
{%- endmacro %}


{#- 2 (1 - Phi(x)) = erfc(x / sqrt 2) for x >= 0, by Abramowitz and Stegun 7.1.26 (absolute
    error below 1.5e-7): erfc(y) = tau (a1 + tau (a2 + ...)) exp(-y^2), tau = 1 / (1 + p y). -#}
{% macro _two_sided_normal_p(x) -%}
    {%- set double = rank_metrics.type_double() -%}
    {%- set y = '(cast(' ~ x ~ ' as ' ~ double ~ ') / sqrt(cast(2 as ' ~ double ~ ')))' -%}
    {%- set tau = '(1 / (1 + 0.3275911 * ' ~ y ~ '))' -%}
    ({{ tau }} * (0.254829592 + {{ tau }} * (-0.284496736 + {{ tau }} * (1.421413741
        + {{ tau }} * (-1.453152027 + {{ tau }} * 1.061405429)))) * exp(-{{ y }} * {{ y }}))
{%- endmacro %}


{#- The largest rounding error of a mean or standard deviation of per-user values (each within
    [0, 1], whose differences a double holds to about 1e-16): below it, a standard deviation or
    a difference is 0, as SPEC §7's rules for s_d = 0 mean. Python's stats.ROUNDING is the same (a test holds them equal). -#}
{% macro _rounding() -%}1e-12{%- endmacro %}


{#- The corrected p-value of a row of rm_ordered (SPEC §7): Holm's step-down, the running largest
    of (m - i + 1) p_(i) with p ascending, capped at 1 (equal p-values get the same value,
    whatever their order); Bonferroni's m p; or none. m counts the rows with a p-value; a row
    without one has none adjusted (least() passes over a NULL: it gave 1). -#}
{% macro _adjusted_p(correction, family, segments=[]) -%}
    {%- set one = 'cast(1 as ' ~ rank_metrics.type_double() ~ ')' -%}
    {%- if correction == 'none' -%}
        p_value
    {%- elif correction == 'bonferroni' -%}
        case when p_value is not null then least({{ one }}, p_value * rm_tested) end
    {%- else -%}
        case when p_value is not null then least({{ one }}, max((rm_tested - rm_step + 1) * p_value)
            over ({{ rank_metrics._family(family, segments) }} order by rm_step rows between unbounded preceding and current row)) end
    {%- endif -%}
{%- endmacro %}


{#- The window of the rows one correction spans: one metric at one k in one segment (the by
    columns after the models', quoted: family='metric_and_k'), or every row (family='all'; k is
    never 0, so its sign is one partition). -#}
{% macro _family(family, segments=[]) -%}
    {{- 'partition by ' ~ (segments | join(', ') ~ ', ' if segments else '') ~ 'k, metric' if family == 'metric_and_k' else rank_metrics._one_partition('k') -}}
{%- endmacro %}

{#- Rows `a` and `b` have the same k: equal, or (with a cutoff-free metric, whose rows have k
    NULL and must pair too) both NULL. -#}
{% macro _same_k(plan, a, b) -%}
    {%- if plan.cutoff_free -%}({{ a }}.k = {{ b }}.k or ({{ a }}.k is null and {{ b }}.k is null))
    {%- else -%}{{ a }}.k = {{ b }}.k
    {%- endif -%}
{%- endmacro %}
