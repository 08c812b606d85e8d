{#- A column name as a quoted identifier, never pasted as text: double quotes, with any double
    quote inside doubled (ANSI SQL, as DuckDB and PostgreSQL read it). -#}
{% macro default__quote_identifier(name) -%}
    "{{ name | string | replace('"', '""') }}"
{%- endmacro %}

{#- Spark SQL quotes identifiers with backticks, any backtick inside doubled. -#}
{% macro spark__quote_identifier(name) -%}
    `{{ name | string | replace('`', '``') }}`
{%- endmacro %}
