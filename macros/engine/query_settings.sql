{#- PostgreSQL: the session's settings that change what a query reads, set for the query alone
    (Python runs it first in the query's savepoint, rolled back after, or in a transaction of its
    own): doubles sent in full (extra_float_digits: set low, a session rounded every value), and
    pg_catalog's functions first when the caller's path names a schema before it (that schema's
    ln, sqrt and chr answered in their place); otherwise the caller's path stays, which views and
    the functions they call resolve names on. One statement, every function and operator named
    with its schema, so that the path it reads cannot answer for them. -#}
{% macro postgres__query_settings() -%}
select pg_catalog.set_config('extra_float_digits', '3', true),
    case when (select u.s::text from pg_catalog.unnest(pg_catalog.current_schemas(true)) with ordinality as u(s, n)
               where not pg_catalog.starts_with(u.s::text, 'pg_temp') order by u.n limit 1) operator(pg_catalog.=) 'pg_catalog'::text
        then null
        else pg_catalog.set_config('search_path', pg_catalog.concat('pg_catalog, ', pg_catalog.current_setting('search_path')), true)
    end
{%- endmacro %}
