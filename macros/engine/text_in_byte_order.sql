{#- A text expression as ORDER BY should compare it: by its bytes, as DuckDB, Spark and the
    reference compare text, where ties "by item" are broken. A PostgreSQL database or column
    of a linguistic collation (en_US.UTF-8, an ICU locale: the default of many servers) put
    'a' before 'B', so its numbers differed from DuckDB's and check=True failed (a new user's
    trial); "C" is byte order, and is in every PostgreSQL. -#}
{% macro default__text_in_byte_order(expression) -%}
    {{ expression }}
{%- endmacro %}

{% macro postgres__text_in_byte_order(expression) -%}
    {{ expression }} collate "C"
{%- endmacro %}

{#- dbt-redshift dispatches to postgres__ next; Redshift compares text by its bytes (its
    default collation is case_sensitive) and has no COLLATE clause -#}
{% macro redshift__text_in_byte_order(expression) -%}
    {{ expression }}
{%- endmacro %}
