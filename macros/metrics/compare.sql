{#- Paired comparison of models against a baseline (SPEC §7), from the one pass's per-user
    values: a row per model, k and metric (see _compare in building_blocks/_comparison.sql).
    Arguments beyond those of evaluate: baseline (required), test ('t'), correction ('holm',
    'bonferroni', 'none'), alpha (0.05). -#}

{% macro default__compare(predictions, truth, k) -%}
    {{ rank_metrics._compare(predictions, truth, k, kwargs) }}
{%- endmacro %}
