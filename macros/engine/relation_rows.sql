{#- For check=True on a database connection: every row of an input, for the reference. -#}
{% macro default__relation_rows(relation, columns) %}
select * from {{ relation }}
{%- endmacro %}

{#- No row of an input, for its columns' names and types (a Snowflake connection's description). -#}
{% macro relation_no_rows(relation) %}
select * from {{ relation }} limit 0
{%- endmacro %}

{#- PostgreSQL: an array of an enum type comes to Python as its text ('{red,green}'), which the
    reference read as one item; as text[] it is a list. A real (float4) comes as its shortest
    decimal (0.1), where the SQL computes with the stored 0.100000001490116: graded NDCG was
    4e-9 off the reference (a new user's trial); as double precision it is the stored value. -#}
{% macro postgres__relation_rows(relation, columns) %}
select
    {%- for column in columns %}
    {% set name = rank_metrics.quote_identifier(column.name) -%}
    {%- if column.data_type == 'USER-DEFINED[]' -%}cast({{ name }} as text[]) as {{ name }}
    {%- elif column.data_type == 'real' -%}cast({{ name }} as double precision) as {{ name }}
    {%- else -%}{{ name }}
    {%- endif %}{{ ',' if not loop.last }}
    {%- endfor %}
from {{ relation }}
{%- endmacro %}
