{#- A list-shaped table (one row per user, the items in a list column, or in a text column
    separated by `separator`) as rows: the kept columns, the item under its own name and, when
    `position` is given, the item's place in the list (1, 2, 3, ...) under that name. Blank
    items of a separated text are dropped (positions then have a gap, closed when ranks are
    numbered 1, 2, 3, ... in list order). All names arrive quoted. -#}

{#- The standard form, unnest ... with ordinality: for an engine the package has no variant
    for. Positions only order the items: ranks are numbered 1, 2, 3, ... from that order. -#}
{% macro default__unnest_list(relation, keep, item, separator, position) -%}
    {%- set items = 'string_split(rm_l.' ~ item ~ ', ' ~ rank_metrics.string_literal(separator) ~ ')' if separator is not none else 'rm_l.' ~ item -%}
    {#- split text is text, whatever the engine's unnest makes of it -#}
    {%- set value = 'cast(rm_u.rm_item as ' ~ rank_metrics.type_string() ~ ')' if separator is not none else 'rm_u.rm_item' -%}
    (select {{ rank_metrics._column_prefix(keep, 'rm_l') }}{{ value }} as {{ item }}
        {%- if position is not none %}, rm_u.rm_position as {{ position }}{% endif %}
    from {{ relation }} as rm_l
    cross join unnest({{ items }}) with ordinality as rm_u(rm_item, rm_position)
    {{- " where " ~ value ~ " <> ''" if separator is not none }})
{%- endmacro %}

{#- PostgreSQL: unnest ... with ordinality. -#}
{% macro postgres__unnest_list(relation, keep, item, separator, position) -%}
    {%- set items = 'string_to_array(rm_l.' ~ item ~ ', ' ~ rank_metrics.string_literal(separator) ~ ')' if separator is not none else 'rm_l.' ~ item -%}
    (select {{ rank_metrics._column_prefix(keep, 'rm_l') }}rm_u.rm_item as {{ item }}
        {%- if position is not none %}, rm_u.rm_position as {{ position }}{% endif %}
    from {{ relation }} as rm_l
    cross join lateral unnest({{ items }}) with ordinality as rm_u(rm_item, rm_position)
    {{- " where rm_u.rm_item <> ''" if separator is not none }})
{%- endmacro %}

{#- Spark: posexplode counts from 0; split takes a regular expression, so the separator's
    characters are escaped. -#}
{% macro spark__unnest_list(relation, keep, item, separator, position) -%}
    {%- set pattern = [] -%}
    {%- for character in (separator or '') -%}
        {%- do pattern.append(character if character.isalnum() else '\\' ~ character) -%}
    {%- endfor -%}
    {%- set items = 'split(rm_l.' ~ item ~ ', ' ~ rank_metrics.string_literal(pattern | join('')) ~ ')' if separator is not none else 'rm_l.' ~ item -%}
    (select {{ rank_metrics._column_prefix(keep, 'rm_l') }}rm_u.rm_item as {{ item }}
        {%- if position is not none %}, rm_u.rm_position + 1 as {{ position }}{% endif %}
    from {{ relation }} as rm_l
    lateral view posexplode({{ items }}) rm_u as rm_position, rm_item
    {{- " where rm_u.rm_item <> ''" if separator is not none }})
{%- endmacro %}

{#- DuckDB: unnest and generate_subscripts side by side in one select walk a list together. A
    lateral unnest ... with ordinality of a list column gives the same rows but runs about 15
    times slower there (DuckDB 2.0, a million lists of 12). -#}
{% macro duckdb__unnest_list(relation, keep, item, separator, position) -%}
    {%- set items = 'string_split(' ~ item ~ ', ' ~ rank_metrics.string_literal(separator) ~ ')' if separator is not none else item -%}
    (select * from (
        select {{ rank_metrics._column_prefix(keep) }}unnest({{ items }}) as {{ item }}
            {%- if position is not none %}, generate_subscripts({{ items }}, 1) as {{ position }}{% endif %}
        from {{ relation }} as rm_l
    ) as rm_u{{ ' where ' ~ item ~ " <> ''" if separator is not none }})
{%- endmacro %}

{#- Redshift keeps arrays as SUPER values, unnested by PartiQL (`from t as l, l.items as item at
    position`), which no engine here can check: an error rather than SQL that does not run. -#}
{% macro redshift__unnest_list(relation, keep, item, separator, position) -%}
    {#- a text of items split by item_separator too: Redshift's split_to_array makes a SUPER value -#}
    {{ exceptions.raise_compiler_error("rank_metrics: list-shaped inputs are not supported on Redshift, "
        ~ ("neither a list column nor a text split by item_separator (Redshift splits text into SUPER arrays, unnested with PartiQL)"
           if separator is not none else "(its arrays are SUPER values, unnested with PartiQL)")
        ~ "; give it a row per item (long form)") }}
{%- endmacro %}

{#- BigQuery: unnest ... with offset (from 0); split takes the separator as it is. -#}
{% macro bigquery__unnest_list(relation, keep, item, separator, position) -%}
    {%- set items = 'split(rm_l.' ~ item ~ ', ' ~ rank_metrics.string_literal(separator) ~ ')' if separator is not none else 'rm_l.' ~ item -%}
    (select {{ rank_metrics._column_prefix(keep, 'rm_l') }}rm_item as {{ item }}
        {%- if position is not none %}, rm_position + 1 as {{ position }}{% endif %}
    from {{ relation }} as rm_l
    cross join unnest({{ items }}) as rm_item with offset as rm_position
    {{- " where rm_item <> ''" if separator is not none }})
{%- endmacro %}

{#- Trino: unnest ... with ordinality, its own; split takes the separator as it is. -#}
{% macro trino__unnest_list(relation, keep, item, separator, position) -%}
    {%- set items = 'split(rm_l.' ~ item ~ ', ' ~ rank_metrics.string_literal(separator) ~ ')' if separator is not none else 'rm_l.' ~ item -%}
    (select {{ rank_metrics._column_prefix(keep, 'rm_l') }}rm_u.rm_item as {{ item }}
        {%- if position is not none %}, rm_u.rm_position as {{ position }}{% endif %}
    from {{ relation }} as rm_l
    cross join unnest({{ items }}) with ordinality as rm_u(rm_item, rm_position)
    {{- " where rm_u.rm_item <> ''" if separator is not none }})
{%- endmacro %}

{#- Snowflake has no unnest: FLATTEN, whose index counts from 0 and whose values are VARIANTs.
    Split text is taken back as text by split_part at the same place, so an item stays the
    text it was (a VARIANT cast to text would be Snowflake's JSON spelling on some engines);
    the items of an ARRAY column stay VARIANTs, which Snowflake compares with the truth's ids. -#}
{% macro snowflake__unnest_list(relation, keep, item, separator, position) -%}
    {%- set items = 'split(rm_l.' ~ item ~ ', ' ~ rank_metrics.string_literal(separator) ~ ')' if separator is not none else 'rm_l.' ~ item -%}
    {%- set value = 'split_part(rm_l.' ~ item ~ ', ' ~ rank_metrics.string_literal(separator) ~ ', rm_u.rm_position + 1)' if separator is not none else 'rm_u.rm_item' -%}
    (select {{ rank_metrics._column_prefix(keep, 'rm_l') }}{{ value }} as {{ item }}
        {%- if position is not none %}, rm_u.rm_position + 1 as {{ position }}{% endif %}
    from {{ relation }} as rm_l
    cross join table(flatten(input => {{ items }})) as rm_u(rm_seq, rm_key, rm_path, rm_position, rm_item, rm_this)
    {{- " where " ~ value ~ " <> ''" if separator is not none }})
{%- endmacro %}
