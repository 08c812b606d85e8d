{#- Text as an SQL string literal, any single quote inside doubled. -#}
{% macro default__string_literal(text) -%}
    '{{ text | string | replace("'", "''") }}'
{%- endmacro %}

{#- Spark reads '' as two adjacent literals, not a quote: escape with backslashes instead. -#}
{% macro spark__string_literal(text) -%}
    '{{ text | string | replace('\\', '\\\\') | replace("'", "\\'") }}'
{%- endmacro %}
