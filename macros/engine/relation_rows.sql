{#- For check=True on a database connection: every row of an input, for the reference. -#}
{% macro default__relation_rows(relation) %}
select * from {{ relation }}
{%- endmacro %}
