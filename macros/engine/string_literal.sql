{#- Text as an SQL string literal, any single quote inside doubled. -#}
{% macro default__string_literal(text) -%}
    '{{ text | string | replace("'", "''") }}'
{%- endmacro %}
