{#- The mean of a column that is never NULL (a per-user metric value), in an aggregate that takes
    many of them at once. A mean of equal values is that value exactly (SPEC §1: a perfect model
    scores 1.0, not the 0.9999999999999998 a sum of five 1.0 / 5 can give): where the engine's
    sum rounds, the smallest value is taken when it is also the largest. DuckDB, PostgreSQL and
    Spark take the exact mean instead (sum_of_values.sql: the double nearest it, SPEC §1); the
    other warehouses the engine's avg. -#}
{% macro default__mean(column) -%}
    case when min({{ column }}) = max({{ column }}) then min({{ column }}) else avg({{ column }}) end
{%- endmacro %}

{% macro spark__mean(column) -%}
    {{ rank_metrics._exact_mean_spark(column) }}
{%- endmacro %}

{% macro spark__weighted_mean(value, weight, over=none) -%}
    {{ rank_metrics._exact_mean_spark(value, weight, over) }}
{%- endmacro %}

{#- PostgreSQL's avg of doubles is not the nearest double to the exact mean (SPEC §1): the
    exact mean, computed in numeric. -#}
{% macro postgres__mean(column) -%}
    {{ rank_metrics._exact_mean_numeric(column) }}
{%- endmacro %}

{#- DuckDB's avg, like its sum, depends on the order its threads finish (sum_of_values): the
    exact mean, which is also exact for equal values. -#}
{% macro duckdb__mean(column) -%}
    {{ rank_metrics._exact_mean(column) }}
{%- endmacro %}

{#- The mean over rows that each stand for `weight` users (hit patterns), weighted by them; an
    aggregate, or a window when `over` is given. -#}
{% macro default__weighted_mean(value, weight, over=none) -%}
    {%- set window = ' ' ~ over if over else '' -%}
    case when min({{ value }}){{ window }} = max({{ value }}){{ window }} then min({{ value }}){{ window }}
        else {{ rank_metrics.sum_of_values(weight ~ ' * ' ~ value, over) }} / cast(sum({{ weight }}){{ window }} as {{ rank_metrics.type_double() }}) end
{%- endmacro %}

{% macro postgres__weighted_mean(value, weight, over=none) -%}
    {{ rank_metrics._exact_mean_numeric(value, weight, over) }}
{%- endmacro %}

{#- Redshift inherits PostgreSQL's macros but has neither its unbounded numeric (38 digits at
    most) nor div(): the engine's avg, as elsewhere. -#}
{% macro redshift__mean(column) -%}
    {{ rank_metrics.default__mean(column) }}
{%- endmacro %}

{% macro redshift__weighted_mean(value, weight, over=none) -%}
    {{ rank_metrics.default__weighted_mean(value, weight, over) }}
{%- endmacro %}

{% macro duckdb__weighted_mean(value, weight, over=none) -%}
    {{ rank_metrics._exact_mean(value, weight, over) }}
{%- endmacro %}
