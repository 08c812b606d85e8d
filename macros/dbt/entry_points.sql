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
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('evaluate_over_time', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, k, options, varargs)))) }}
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
