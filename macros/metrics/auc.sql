{#- AUC@k, per user (SPEC §6b): over the first k items of the user's list (L = min(n(u), k) of
    them), the positives are its relevant hits (P) and the negatives the other L - P entries; the
    share of the P (L - P) pairs whose positive comes first. Positions are unique, so no pair
    ties. A positive at position p comes before the negatives after it, (L - p) less the
    positives after it, so the pairs sum to P L - Σ p - P (P - 1) / 2 (Σ p over the hits within
    k: the sum rm_hit_positions). A user with no positive or no negative within k has no AUC:
    the value is NULL, not averaged and not counted in the metric's n_users (the registry's
    partial). Their mean over users is GAUC. -#}

{% macro _per_user_auc(plan, k='k', at='') -%}
    {%- set double = rank_metrics.type_double() -%}
    {%- set hits = 'rm_n_hits' ~ at -%}
    {%- set listed = 'least(rm_list_length, ' ~ k ~ ')' -%}
    case when {{ hits }} > 0 and {{ listed }} > {{ hits }}
        then cast(2 * {{ hits }} * {{ listed }} - 2 * rm_hit_positions{{ at }} - {{ hits }} * ({{ hits }} - 1) as {{ double }})
            / cast(2 * {{ hits }} * ({{ listed }} - {{ hits }}) as {{ double }}) end
{%- endmacro %}

{#- A row of rm_hits' term of the sum within k (_hit_term): a relevant hit's position. -#}
{% macro _hit_positions_per_hit(plan, k) -%}
    case when rm_position <= {{ k }} and rm_relevant = 1 then rm_position else 0 end
{%- endmacro %}

{#- The sum of the relevant hit positions within k from the word of hit positions (bit r for a
    hit at r), over the positions after `after`. -#}
{% macro _hit_positions_from_bits(plan, bits, k, after=0) -%}
    {%- for r in range(after + 1, k + 1) %}{{ '\n            + ' if not loop.first }}case when ({{ bits }} & {{ 2 ** r }}) <> 0 then {{ r }} else 0 end
    {%- endfor -%}
{%- endmacro %}

{#- A user's weight in GAUC (_user_weight): its list length n(u), its impressions, under
    auc_weight='impressions'; otherwise every user with a value weighs 1. -#}
{% macro _auc_user_weight(plan) -%}
    {{- 'rm_list_length' if plan.auc_weight == 'impressions' -}}
{%- endmacro %}

{% macro default__auc_at_k(predictions, truth, k) -%}
    {{ rank_metrics._metric_at_k('auc', predictions, truth, k, kwargs) }}
{%- endmacro %}

{#- The public dbt macro (macros/dbt/entry_points.sql says how entry points read their arguments). -#}
{% macro auc_at_k(predictions, truth, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('auc_at_k', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, k, kwargs, varargs)))) }}
{% endmacro %}
