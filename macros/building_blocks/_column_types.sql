{#- What a column's type says: its coarse family, whether it holds whole numbers, a list's
    item type, whether it compares without case, and why two id columns' types do not meet. -#}

{#- A coarse family of a column type, so that int and bigint match but int and varchar do not:
    number (whole numbers and decimals, exact), floating point, string, or the type itself. Names
    as DuckDB, PostgreSQL, Spark and dbt spell them; a whole-name match, so that interval or
    point are not taken for numbers. -#}
{% macro _type_family(data_type) -%}
    {%- set lowered = data_type | string | lower | trim -%}
    {%- set base = (lowered.split('(') | first) | trim -%}
    {%- set numbers = ['tinyint', 'smallint', 'integer', 'int', 'bigint', 'hugeint', 'utinyint',
                       'usmallint', 'uinteger', 'ubigint', 'uhugeint', 'int1', 'int2', 'int4',
                       'int8', 'int16', 'int32', 'int64', 'int128', 'byte', 'short', 'long',
                       'decimal', 'numeric', 'number', 'bigdecimal'] -%}
    {%- set floats = ['float', 'float4', 'float8', 'float32', 'float64', 'real', 'double', 'double precision'] -%}
    {%- if base in ['varchar', 'char', 'character', 'character varying', 'text', 'string', 'bpchar', 'nvarchar', 'nchar', 'enum'] -%}string
    {%- elif base in numbers -%}number
    {%- elif base in floats -%}floating point
    {#- a column of only NULLs, or of an empty frame without a dtype (pandas' object columns), has
        none: the data checks name its NULLs, or the table has no rows -#}
    {%- elif base.strip('"') in ['null', 'void'] -%}no type
    {#- DuckDB's timestamps of other units compare exactly, in the finer unit (a pandas frame's
        TIMESTAMP_NS against a table's TIMESTAMP) -#}
    {%- elif lowered in ['timestamp_s', 'timestamp_ms', 'timestamp_ns', 'timestamp'] -%}timestamp
    {%- else -%}{{ lowered }}
    {%- endif -%}
{%- endmacro %}

{#- 'true' when the engine finds values of this type equal though their case or accents differ:
    PostgreSQL's citext (in any schema), Spark's UTF8_LCASE, *_CI and *_AI collations (a user's
    trial: 'B' met truth's 'b'). -#}
{% macro _compares_without_case(data_type) -%}
    {%- set lowered = data_type | string | lower -%}
    {%- set base = lowered.split('[') | first | trim -%}
    {{- 'true' if base == 'citext' or base.endswith('.citext')
                 or ('collate' in lowered and ('lcase' in lowered or '_ci' in lowered or '_ai' in lowered)) else '' -}}
{%- endmacro %}

{#- The type of the column of this name, as the columns give it ('' when they are not known). -#}
{% macro _column_type(columns, name) -%}
    {{- (columns or []) | selectattr('name', 'equalto', name) | map(attribute='data_type') | map('string') | first | default('') -}}
{%- endmacro %}

{#- Whether the column of this name holds whole numbers only (false when the columns are not known). -#}
{% macro _is_integer_column(columns, name) -%}
    {{- rank_metrics._is_integer_type(rank_metrics._column_type(columns, name) | trim) -}}
{%- endmacro %}

{#- Why ids of these two types (predictions', truth's) do not meet as the reference compares
    them: 'types' when their kinds differ and no more is to be said, '' when they meet. -#}
{% macro _why_ids_do_not_meet(left, right) -%}
    {%- set families = [rank_metrics._type_family(left), rank_metrics._type_family(right)] if left is not none and right is not none else [] -%}
    {%- set fixed = ['character', 'char', 'bpchar', 'nchar'] -%}
    {%- set singles = ['float', 'float4', 'float32', 'real'] -%}
    {%- if not families or 'no type' in families -%}
    {%- elif families[0] != families[1] -%}
        {#- a whole number and a double compare as doubles, where distinct ids past 2^53 meet -#}
        {%- if 'floating point' in families and 'number' in families -%}
            ids compared with a floating point column are compared as doubles, where distinct large ids are equal; a column of whole numbers often becomes floating point where it held a missing value
        {%- else -%}types{%- endif -%}
    {#- text of a fixed length (PostgreSQL's char(n), which it compares without its padding and
        which comes to Python padded; Spark pads it) against text or text of another length: 'b'
        met 'b    ' on PostgreSQL, and check=True blamed the SQL (a new user's trial) -#}
    {%- elif families == ['string', 'string'] and ((left | lower).split('(') | first | trim in fixed or (right | lower).split('(') | first | trim in fixed)
             and (left | lower | replace(' ', '')) != (right | lower | replace(' ', '')) -%}
        text of a fixed length is padded with spaces, which engines compare in their own ways
    {#- a 32-bit float and a double of the same decimal are two numbers (0.1 as a float is
        0.100000001490116): ids of the two widths never met, without a word -#}
    {%- elif families == ['floating point', 'floating point'] and ((left | lower | trim) in singles) != ((right | lower | trim) in singles) -%}
        a 32-bit float is another number than the double of the same decimal: 0.1 is 0.100000001490116 as a float
    {%- endif -%}
{%- endmacro %}

{#- "column x (argument a) of table is <type>": an id column of one table, named as its argument. -#}
{% macro _id_column_is(table, argument, name, truth_name, data_type) -%}
    {%- set column = name if table == 'predictions' else truth_name -%}
    {{- "rank_metrics: column " ~ column ~ " "
        ~ rank_metrics._mention(argument if table == 'predictions' or argument == 'by' else rank_metrics._truth_argument(argument, truth_name, name), column, 'argument')
        ~ " of " ~ table ~ " is " ~ data_type -}}
{%- endmacro %}

{#- The argument that names truth's user or item column: truth_user / truth_item when truth's
    column has a name of its own (`truth_name`), else user / item, which name both. -#}
{% macro _truth_argument(argument, truth_name, name) -%}
    {{- 'truth_' ~ argument if truth_name != name else argument -}}
{%- endmacro %}

{#- Whether the column of this name is a decimal with digits after the point. Such ranks are
    compared with k as doubles (see _ranked_hits): DuckDB compares a decimal with a number by
    casting the number to the decimal's type when it cannot widen the two past 38 digits, which
    fails for a number the type cannot hold ("Casting value "12.5" to type DECIMAL(38,37)
    failed", also DECIMAL(38, 28) against k = 10^10), and Spark compares DECIMAL(38, 32) with an
    integer in DECIMAL(38, 28), where 0.99…9 (31 nines) equals 1. -#}
{#- Whether the column of this name is a decimal of no digits after the point. Ranks of whole
    numbers (integers, DECIMAL(38, 0)) are cut with <= k: < k + 0.5 made DuckDB widen a
    DECIMAL(38, 0) or a HUGEINT of 1e37 to DECIMAL(38, 1), a raw conversion error (a user's trial). -#}
{% macro _is_whole_decimal_column(columns, name) -%}
    {%- set lowered = rank_metrics._column_type(columns, name) | lower | replace(' ', '') -%}
    {%- set digits = lowered.split('(')[1].rstrip(')').split(',') if lowered.startswith(('decimal(', 'numeric(')) else [] -%}
    {{- digits | length == 2 and digits[1] | int == 0 -}}
{%- endmacro %}

{% macro _is_fractional_decimal_column(columns, name) -%}
    {%- set lowered = rank_metrics._column_type(columns, name) | lower | replace(' ', '') -%}
    {%- set digits = lowered.split('(')[1].rstrip(')').split(',') if lowered.startswith(('decimal(', 'numeric(')) else [] -%}
    {{- digits | length == 2 and digits[1] | int > 0 -}}
{%- endmacro %}

{#- Whether a column type holds whole numbers only (false when the type is not known). -#}
{% macro _is_integer_type(data_type) -%}
    {%- set base = ((data_type | string | lower).split('(') | first) | trim -%}
    {{- data_type is not none and base in ['tinyint', 'smallint', 'integer', 'int', 'bigint', 'hugeint', 'utinyint',
                                           'usmallint', 'uinteger', 'ubigint', 'uhugeint', 'int1', 'int2', 'int4',
                                           'int8', 'int16', 'int32', 'int64', 'int128', 'byte', 'short', 'long'] -}}
{%- endmacro %}

{#- The type of a list's items ('VARCHAR[]', DuckDB's fixed-size 'VARCHAR[12]', 'array<string>'
    -> 'VARCHAR', 'string'), or the type itself when it is not a list; PostgreSQL's information
    schema says only 'ARRAY' (none). -#}
{% macro _element_type(data_type) -%}
    {%- set text = data_type | string | trim -%}
    {%- set size = text.split('[') | last if text.endswith(']') else '' -%}
    {%- if text.endswith('[]') -%}{{ text[:-2] }}
    {%- elif size[:-1].isdigit() -%}{{ text[:-(size | length) - 1] }}
    {%- elif text | lower in ['array', '_text', '_varchar', '_int4', '_int8'] -%}{{ 'array' }}
    {%- elif (text | lower).startswith('array<') and text.endswith('>') -%}{{ text[6:-1] }}
    {%- elif (text | lower).startswith('list<') and text.endswith('>') -%}{{ text[5:-1] }}
    {%- else -%}{{ text }}
    {%- endif -%}
{%- endmacro %}

{#- Whether a column of this type can hold NaN or ±inf: floating point, and decimal (PostgreSQL's
    numeric holds NaN and ±Infinity); false when the type is not known. -#}
{% macro _can_hold_nan(data_type) -%}
    {{- data_type is not none and (rank_metrics._type_family(data_type) | trim == 'floating point'
                                   or ((data_type | string | lower).split('(') | first | trim) in ['numeric', 'decimal']) -}}
{%- endmacro %}
