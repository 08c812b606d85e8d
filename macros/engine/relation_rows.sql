{#- For check=True on a database connection: every row of an input, for the reference. -#}
{% macro default__relation_rows(relation, columns) %}
select * from {{ relation }}
{%- endmacro %}

{#- PostgreSQL: an array of an enum type comes to Python as its text ('{red,green}'), which the
    reference read as one item; as text[] it is a list. -#}
{% macro postgres__relation_rows(relation, columns) %}
select
    {%- for column in columns %}
    {% set name = rank_metrics.quote_identifier(column.name) -%}
    {{ 'cast(' ~ name ~ ' as text[]) as ' ~ name if column.data_type == 'USER-DEFINED[]' else name }}{{ ',' if not loop.last }}
    {%- endfor %}
from {{ relation }}
{%- endmacro %}
