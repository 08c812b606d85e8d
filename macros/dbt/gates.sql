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
    {#- compare's p_value is two-sided, and its significant and p_value_adjusted columns judge
        that at alpha: a failing row would say significant = 0. They are left out; the row has
        the one-sided p-value the gate judges and the alpha it judges it at. -#}
    select {{ rank_metrics.quote_identifier(by if by is string else by[0]) }}, k, metric, baseline_value, value,
        difference, relative_difference, std_error, t, df, p_value as p_value_two_sided,
        p_value / 2 as p_value_one_sided, {{ alpha }} as alpha, n_users, n_only_model, n_only_baseline
    from (
        {{ rank_metrics.compare(predictions=model, truth=truth, k=k, **options) }}
    ) as rm_comparison
    where difference < 0 and p_value / 2 < {{ alpha }}
{% endtest %}
