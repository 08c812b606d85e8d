{#- Release gates (SPEC §7): dbt generic tests on a predictions model. Each fails the build
    with one row per offending group, which says what it scored and against what. -#}

{#- Fails for each group (of `by`) and k whose metric is below min_value. -#}
{% test metric_at_least(model, truth, k, metric, min_value, by=none) %}
    {%- if min_value is not number or min_value is boolean -%}
        {{ exceptions.raise_compiler_error("rank_metrics: metric_at_least: min_value must be a number; got " ~ min_value) }}
    {%- endif -%}
    {%- set options = dict(kwargs, by=by, metrics=[metric]) -%}
    select rm_values.*, {{ min_value }} as min_value
    from (
        {{ rank_metrics.evaluate(predictions=model, truth=truth, k=k, **options) }}
    ) as rm_values
    where value < {{ min_value }}
{% endtest %}

{#- Fails for each model (a value of `by`) significantly worse than the baseline at some k:
    difference < 0 with the one-sided p-value (half the two-sided t test's, normal
    approximation) below alpha, each comparison on its own (no correction). -#}
{% test no_significant_regression(model, truth, k, metric, by, baseline, alpha=0.05) %}
    {%- set options = dict(kwargs, by=by, metrics=[metric], baseline=baseline, correction='none', alpha=alpha) -%}
    select rm_comparison.*, p_value / 2 as p_value_one_sided
    from (
        {{ rank_metrics.compare(predictions=model, truth=truth, k=k, **options) }}
    ) as rm_comparison
    where difference < 0 and p_value / 2 < {{ alpha }}
{% endtest %}
