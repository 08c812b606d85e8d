{#- mean='geometric' (SPEC §6b): a group's value is exp(mean(ln(max(x_u, 1e-5)))), trec_eval's
    gm_map for AP. The per-user values are averaged as their logs (rm_user_values), by the same
    means and standard errors as any value, and the mean is taken back with exp: the standard
    error by the delta method, G times that of the logs, and the interval exp(mean of logs -/+ z
    times its standard error), which stays above 0. -#}

{#- A per-user value as it is averaged: itself, or its log under mean='geometric' (NULL stays
    NULL when the value may be one, `partial`: greatest skips a NULL). -#}
{% macro _averaged(plan, value, partial=false) -%}
    {%- if plan.mean == 'geometric' and partial -%}
    case when ({{ value }}) is not null then ln(greatest(cast({{ value }} as {{ rank_metrics.type_double() }}), cast(0.00001 as {{ rank_metrics.type_double() }}))) end
    {%- elif plan.mean == 'geometric' -%}
    ln(greatest(cast({{ value }} as {{ rank_metrics.type_double() }}), cast(0.00001 as {{ rank_metrics.type_double() }})))
    {%- else -%}
    {{ value }}
    {%- endif -%}
{%- endmacro %}

{#- A group's mean as reported, from the mean of the averaged values. -#}
{% macro _reported_mean(plan, mean) -%}
    {{ 'exp(' ~ mean ~ ')' if plan.mean == 'geometric' else mean }}
{%- endmacro %}

{#- evaluate's value, std_error, ci_low and ci_high from the mean of the averaged values and its
    standard error (columns value and std_error of `source`). -#}
{% macro _reported_columns(plan) -%}
    {%- set z = 'cast(' ~ plan.z ~ ' as ' ~ rank_metrics.type_double() ~ ')' -%}
    {%- if plan.mean == 'geometric' -%}
    exp(value) as value, n_users, exp(value) * std_error as std_error,
    exp(value - {{ z }} * std_error) as ci_low,
    exp(value + {{ z }} * std_error) as ci_high
    {%- else -%}
    value, n_users, std_error,
    value - {{ z }} * std_error as ci_low,
    value + {{ z }} * std_error as ci_high
    {%- endif -%}
{%- endmacro %}
