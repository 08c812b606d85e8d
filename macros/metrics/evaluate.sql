{#- Several metrics at once (SPEC §6), all from the one pass:
    evaluate renders <by columns>, k, metric, value, n_users (a row per group, k and metric);
    evaluate_users a row per evaluated user and k: <by columns>, <user>, k, one column per
    metric, n_relevant, n_hits. `metrics` defaults to all six. -#}

{% macro default__evaluate(predictions, truth, k) -%}
    {{ rank_metrics._evaluate(predictions, truth, k, kwargs) }}
{%- endmacro %}

{% macro default__evaluate_users(predictions, truth, k) -%}
    {{ rank_metrics._evaluate_users(predictions, truth, k, kwargs) }}
{%- endmacro %}
