{#- For the Python API on a database connection: the columns (column_name, data_type) of a table,
    in the connection's current schema when none is given. -#}
{% macro default__relation_columns(schema, table) %}
select column_name, data_type
from information_schema.columns
where table_schema = {{ 'current_schema()' if schema is none else rank_metrics.string_literal(schema) }}
    and table_name = {{ rank_metrics.string_literal(table) }}
order by ordinal_position
{%- endmacro %}

{#- PostgreSQL: the relation the query's own name resolves to (to_regclass follows the search
    path, as the metric query would), of any kind that holds rows: a materialized view, which
    information_schema leaves out, too; its schema (the queries name it), and whether the role may
    read it. Types as information_schema spells them, which the
    macros read: USER-DEFINED for an enum, a domain as its base type; but an array with its
    items' type (double precision[], USER-DEFINED[]: information_schema's ARRAY hid it, and
    float8 items met bigint truth as doubles, silently); and text of a fixed length with its
    length, character(3), which ids of another length do not meet as the reference reads them. -#}
{% macro postgres__relation_columns(schema, table) %}
{%- set name = (rank_metrics.quote_identifier(schema) ~ '.' if schema is not none else '') ~ rank_metrics.quote_identifier(table) -%}
select a.attname as column_name, n.nspname as table_schema,
    pg_catalog.has_table_privilege(c.oid, 'SELECT') or pg_catalog.has_any_column_privilege(c.oid, 'SELECT') as readable,
    case when b.typtype = 'e' then 'USER-DEFINED'
        when b.typcategory = 'A' and e.typtype = 'e' then 'USER-DEFINED[]'
        when b.typcategory = 'A' then pg_catalog.concat(pg_catalog.format_type(case when e.typtype = 'd' then e.typbasetype else e.oid end, null), '[]')
        when b.typname = 'bpchar' then pg_catalog.format_type(b.oid, case when t.typtype = 'd' then t.typtypmod else a.atttypmod end)
        else pg_catalog.format_type(b.oid, null) end as data_type
from pg_catalog.pg_attribute as a
inner join pg_catalog.pg_class as c
    on c.oid = a.attrelid
inner join pg_catalog.pg_namespace as n
    on n.oid = c.relnamespace
inner join pg_catalog.pg_type as t
    on t.oid = a.atttypid
-- a domain as its base type (a domain over an array has no element type of its own)
inner join pg_catalog.pg_type as b
    on b.oid = case when t.typtype = 'd' then t.typbasetype else t.oid end
left join pg_catalog.pg_type as e
    on e.oid = b.typelem
where a.attrelid = pg_catalog.to_regclass({{ rank_metrics.string_literal(name) }})
    -- a table, view, materialized view, partitioned or foreign table (not an index, a sequence
    -- or a composite type, which to_regclass names too)
    and c.relkind in ('r', 'v', 'm', 'p', 'f')
    and a.attnum > 0 and not a.attisdropped
order by a.attnum
{%- endmacro %}

{#- PostgreSQL: a relation whose name is `table` in another case (the name as it is spelt, after
    its schema's when one is given, that too in any case), where no relation has that name as
    written: `myrecs` for a table created as "MyRecs", `shop.Recs` for "Shop"."Recs". -#}
{% macro postgres__relation_in_another_case(schema, table) %}
select {{ 'c.relname' if schema is none else "pg_catalog.concat(n.nspname, '.', c.relname)" }}
from pg_catalog.pg_class as c
inner join pg_catalog.pg_namespace as n
    on n.oid = c.relnamespace
where pg_catalog.lower(c.relname) = pg_catalog.lower({{ rank_metrics.string_literal(table) }})
    and c.relkind in ('r', 'v', 'm', 'p', 'f')
    and {{ 'pg_catalog.pg_table_is_visible(c.oid)' if schema is none else 'pg_catalog.lower(n.nspname) = pg_catalog.lower(' ~ rank_metrics.string_literal(schema) ~ ')' }}
order by c.relname
limit 1
{%- endmacro %}

{#- DuckDB: how many tables and views a name means, as DuckDB resolves one: 't', 'schema.t',
    'database.t' (its main schema: an attached file's, or 'temp'), 'database.schema.t', each part
    as _name_parts split it (a part in SQL's double quotes may hold a dot), or the whole name as
    one table's ('my.tab'); in any case, as DuckDB matches names ('recs' is the table Recs). -#}
{% macro duckdb__relation_in_catalog(parts, name) %}
{%- set spellings = {1: [['name']], 2: [['schema_name', 'name'], ['database_name', 'name']],
                     3: [['database_name', 'schema_name', 'name']]}.get(parts | length, []) -%}
select count(*)
from (
    select database_name, schema_name, table_name as name from duckdb_tables()
    union all
    select database_name, schema_name, view_name from duckdb_views()
) as rm_relations
where lower(name) = lower({{ rank_metrics.string_literal(name) }})
{%- for columns in spellings %}
    or ({% for column in columns %}lower({{ column }}) = lower({{ rank_metrics.string_literal(parts[loop.index0]) }}){{ ' and ' if not loop.last }}{% endfor %}
        {{- " and schema_name = 'main'" if columns == ['database_name', 'name'] }})
{%- endfor %}
{%- endmacro %}
