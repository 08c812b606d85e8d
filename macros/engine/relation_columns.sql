{#- For the Python API on a database connection: the columns (column_name, data_type) of a table,
    in the connection's current schema when none is given. -#}
{% macro default__relation_columns(schema, table) %}
select column_name, data_type
from information_schema.columns
where table_schema = {{ 'current_schema()' if schema is none else rank_metrics.string_literal(schema) }}
    and table_name = {{ rank_metrics.string_literal(table) }}
order by ordinal_position
{%- endmacro %}
