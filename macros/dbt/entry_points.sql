{#- The package's public dbt macros beside the metrics' own (map_at_k, ndcg_at_k, ... in
    macros/metrics/<metric>.sql, one file a metric): each renders one SELECT. Every argument
    after (predictions, truth, k) is a keyword argument: user, item, rank, score, relevance, by,
    truth_by, normalization, users, duplicates, tie_break, convention, gain, gain_from,
    precision_denominator, recall_denominator, truth_scope, relevance_threshold, persistence, max_grade, auc_weight, mean, metrics
    (evaluate, evaluate_users) and validate (true: run the data checks when the model runs).
    macros/dbt/macros.yml documents them for `dbt docs`. -#}
{% macro average_precision_at_k(predictions, truth, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('average_precision_at_k', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, k, kwargs, varargs)))) }}
{% endmacro %}

{% macro evaluate(predictions, truth, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('evaluate', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, k, kwargs, varargs)))) }}
{% endmacro %}

{% macro evaluate_users(predictions, truth, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('evaluate_users', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, k, kwargs, varargs)))) }}
{% endmacro %}

{% macro compare(predictions, truth, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('compare', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, k, kwargs, varargs)))) }}
{% endmacro %}

{#- Quality over time (macros/metrics/evaluate_over_time.sql). In an incremental model (not a
    microbatch one, whose batches dbt picks) the model's own table is `previous`: a run computes
    only the periods it lacks, holds as incomplete, or (with loaded_at) whose window received a
    label loaded since, and the model's unique_key (period, by columns, metric, k) replaces them. -#}
{% macro evaluate_over_time(predictions, truth, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {%- set options = dict(kwargs) -%}
    {#- the defaults made explicit: the data checks and the shape warnings group by the period -#}
    {%- do rank_metrics._over_time_defaults(options) -%}
    {%- if 'previous' not in options and is_incremental is defined and is_incremental()
          and (model is not defined or model.get('config', {}).get('incremental_strategy') != 'microbatch') -%}
        {%- do options.update({'previous': this}) -%}
    {%- endif -%}
    {%- do rank_metrics._over_time_unique_key(options) -%}
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('evaluate_over_time', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, k, options, varargs)))) }}
{% endmacro %}

{#- An incremental model's unique_key naming k, with a cutoff-free metric asked (r_precision,
    bpref: their rows have k NULL, which a key never matches): delete+insert, and a merge without
    dbt's flag enable_truthy_nulls_equals_macro, kept their old rows beside the new each run (a
    user's trial: 13 rows twice). An error saying what to key on instead. -#}
{% macro _over_time_unique_key(options) %}
    {%- set config = model.get('config', {}) if model is defined else {} -%}
    {%- set key = config.get('unique_key') -%}
    {%- set keys = [] if key is none else ([key] if key is string else key | list) -%}
    {%- if config.get('materialized') == 'incremental' and 'k' in keys | map('lower') | list -%}
        {%- set registry = {} -%}
        {%- do rank_metrics._metric_registry(registry) -%}
        {%- set asked = options.get('metrics') -%}
        {%- set asked = [] if asked is none else ([asked] if asked is string else asked | list) -%}
        {%- set cutoff_free = [] -%}
        {%- for metric in asked if metric is string and registry.get(metric | lower, {}).get('cutoff_free') %}{% do cutoff_free.append(metric | lower) %}{% endfor -%}
        {%- set merges = config.get('incremental_strategy') in ['merge', 'microbatch'] -%}
        {%- if cutoff_free and not (merges and adapter.behavior.enable_truthy_nulls_equals_macro.no_warn) -%}
            {%- set period = options.get('period', 'period') -%}
            {{ exceptions.raise_compiler_error("rank_metrics: evaluate_over_time: unique_key " ~ ('[' ~ rank_metrics._shown(keys) ~ ']' if key is not string else rank_metrics._shown(key)) ~ " names k, but the rows of "
                ~ cutoff_free | join(' and ') ~ " have k NULL (no cutoff), which a unique_key never matches: each run would keep their old rows beside the new. "
                ~ "Key on the period alone, unique_key=['" ~ period ~ "'] with delete+insert (a recomputed period's rows are replaced whole, every group's), "
                ~ "or, for a merge (PostgreSQL's microbatch), set dbt's flag enable_truthy_nulls_equals_macro: true in dbt_project.yml") }}
        {%- endif -%}
    {%- endif -%}
{% endmacro %}

{#- A cutoff-free metric's public macro (r_precision, bpref) stops a k with the registry's reason
    (its `cutoff`). -#}
{% macro _refuse_k(metric, kwargs, varargs) %}
    {%- if 'k' in kwargs or varargs %}
        {%- set registry = {} -%}
        {%- do rank_metrics._metric_registry(registry) -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ metric ~ " takes no k: " ~ registry[metric].cutoff ~ " (evaluate reports it with k NULL); got k " ~ rank_metrics._shown(kwargs.get('k', varargs[0] if varargs else none))) }}
    {%- endif %}
{% endmacro %}

{#- Beyond accuracy (macros/metrics/beyond_accuracy.sql): the lists' catalog coverage,
    popularity, novelty, diversity and serendipity, from predictions and train (keyword
    arguments: metrics, by, convention, similarity, truth, item_features, user, item, rank, score,
    train_user, train_item, truth_user, truth_item, relevance, features_item). -#}
{% macro beyond_accuracy(predictions, train, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {{ return(rank_metrics._fits_its_view(rank_metrics._beyond_accuracy_dbt(predictions, train, k, kwargs, false))) }}
{% endmacro %}

{% macro beyond_accuracy_users(predictions, train, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {{ return(rank_metrics._fits_its_view(rank_metrics._beyond_accuracy_dbt(predictions, train, k, kwargs, true))) }}
{% endmacro %}

{#- The models (by's first column) against `baseline` on the per-user beyond-accuracy metrics,
    with compare's columns, test and corrections (keyword arguments: beyond_accuracy's, and
    baseline, test, correction, family, alpha). -#}
{% macro compare_beyond_accuracy(predictions, train, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {{ return(rank_metrics._fits_its_view(rank_metrics._beyond_accuracy_dbt(predictions, train, k, kwargs, true, compare=true))) }}
{% endmacro %}
