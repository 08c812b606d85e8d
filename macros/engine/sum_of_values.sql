{#- The sum of per-user metric values (doubles, each in [0, 1], or such a value times a count of
    users) for a group's mean, and of a user's own terms (DCG, the ideal DCG, AP's precision
    sum: one user's rows too may be added in two threads); `over` is a window clause, or none
    for a plain aggregate. `any_size` says the terms may be of any size (gains: a grade's own
    size, or 2^grade).
    default__ is sum. DuckDB adds its threads' partial sums in whatever order they finish, so the
    same query gave means that differ in the last digit from one run to the next (evaluate on the
    example data: two results in ten runs; avg over five users likewise). There each value is
    split into two integers (_exact_high, _exact_low) whose sums are exact whatever the order, and the
    result is their sum, rounded to a double: the same digits every run, within an ulp of the
    exact sum. (A decimal(38, 24) sum had been the way, but DuckDB's cast of a double to a
    decimal is itself inexact: 5.0 became 4.999999999999999379, and a perfect model scored
    0.9999999999999998, issue 40.) Terms of any size are summed so only where they are below
    1e12 and at least 1e-6 when not 0 (gains of grade 100 under gain='exponential' would not
    fit); others are summed as doubles, whose last digit may then differ between runs.
    `compact` (DuckDB): one 128-bit sum of the terms as decimal(38, 18), each rounded to 1e-18,
    for an aggregate of very many groups, where the two sums' state per group went past the
    bench's 3 GB at 10M lists (serendipity's similarities per listed entry). -#}
{% macro default__sum_of_values(expression, over=none, any_size=false, compact=false) -%}
    sum({{ expression }}){{ ' ' ~ over if over }}
{%- endmacro %}

{% macro duckdb__sum_of_values(expression, over=none, any_size=false, compact=false) -%}
    {%- set window = ' ' ~ over if over else '' -%}
    {%- if compact -%}
    cast(sum(cast({{ expression }} as decimal(38, 18))){{ window }} as double)
    {%- elif any_size -%}
    {%- set held = 'case when abs(' ~ expression ~ ') < 1e12 then ' ~ expression ~ ' else 0 end' -%}
    case when max(abs({{ expression }})){{ window }} < 1e12
            and coalesce(min(case when {{ expression }} <> 0 then abs({{ expression }}) end){{ window }}, 1) >= 1e-6
        then {{ rank_metrics._exact_sum(held, window) }}
        else sum({{ expression }}){{ window }} end
    {%- else -%}
    {{ rank_metrics._exact_sum(expression, window) }}
    {%- endif -%}
{%- endmacro %}

{#- _exact_high and _exact_low: a double x as two integers, x = (high + low / 2^62) / 2^32 exactly when 2^-41 <= |x| < 2^62
    (or x = 0): the bits of x below 2^-94 are dropped, and only those. floor() and the scaling by
    powers of two are exact in doubles, and an integral double casts to an integer type exactly
    (DuckDB's hugeint; PostgreSQL's bigint, which holds both for |x| < 2^31). -#}
{% macro _exact_high(expression, integer='hugeint') -%}
    {%- set double = rank_metrics.type_double() -%}
    cast(floor(({{ expression }}) * cast(4294967296 as {{ double }})) as {{ integer }})
{%- endmacro %}

{% macro _exact_low(expression, integer='hugeint') -%}
    {%- set double = rank_metrics.type_double() -%}
    {%- set scaled = '(' ~ expression ~ ') * cast(4294967296 as ' ~ double ~ ')' -%}
    cast(floor(({{ scaled }} - floor({{ scaled }})) * cast(4611686018427387904 as {{ double }})) as {{ integer }})
{%- endmacro %}

{#- DuckDB: the sum of doubles as exact integer sums, rounded to a double at the end. -#}
{% macro _exact_sum(expression, window='') -%}
    (cast(sum({{ rank_metrics._exact_high(expression) }}){{ window }} as double) * cast(2.3283064365386963e-10 as double)
        + cast(sum({{ rank_metrics._exact_low(expression) }}){{ window }} as double) * cast(5.048709793414476e-29 as double))
{%- endmacro %}

{#- DuckDB: the mean of values (weighted by `weight`, a count of users, when given) as the double
    nearest the exact mean, to within an ulp (SPEC §1): the sums of _exact_high and _exact_low are divided by the
    count in integers, quotient and remainder, so the whole mean is one integer in units of 2^-94,
    rounded to a double once. A mean of equal values is that value, exactly. Values up to 2^30,
    counts up to 2^64. -#}
{% macro _exact_mean(value, weight=none, over=none) -%}
    {%- set window = ' ' ~ over if over else '' -%}
    {%- set times = ' * cast(' ~ weight ~ ' as hugeint)' if weight is not none else '' -%}
    {%- set count = 'sum(cast(' ~ weight ~ ' as hugeint))' ~ window if weight is not none else 'cast(count(*)' ~ window ~ ' as hugeint)' -%}
    {%- set high_sum = 'sum(' ~ rank_metrics._exact_high(value) ~ times ~ ')' ~ window -%}
    {%- set two_to_62 = 'cast(4611686018427387904 as hugeint)' -%}
    cast(({{ high_sum }} // {{ count }}) * {{ two_to_62 }}
            + (({{ high_sum }} % {{ count }}) * {{ two_to_62 }} + sum({{ rank_metrics._exact_low(value) }}{{ times }}){{ window }}) // {{ count }}
        as double) * cast(5.048709793414476e-29 as double)
{%- endmacro %}

{#- PostgreSQL: the same mean in its numeric, whose sums, products and integer division are exact
    at any size: the sums of _exact_high and _exact_low (bigint; their sum is numeric) make the
    exact total in units of 2^-94, divided by the count in integers (div) and rounded to a double
    once (numeric to double precision goes through the number's digits, correctly rounded). Its
    avg of doubles had given means 1 to 3 ulp from the exact one (precision@10 over 27 users,
    137/270: 0.5074074074074075; a user's trial), and may sum in parallel workers' order. div's
    arguments are both numeric, pg_catalog's own: of other types, a div of a schema on the
    caller's path could be chosen over it. -#}
{% macro _exact_mean_numeric(value, weight=none, over=none) -%}
    {%- set window = ' ' ~ over if over else '' -%}
    {%- set times = ' * cast(' ~ weight ~ ' as numeric)' if weight is not none else '' -%}
    {%- set count = 'sum(cast(' ~ weight ~ ' as numeric))' ~ window if weight is not none else 'count(*)' ~ window -%}
    cast(div(sum(cast({{ rank_metrics._exact_high(value, 'bigint') }} as numeric){{ times }}){{ window }} * 4611686018427387904
                 + sum(cast({{ rank_metrics._exact_low(value, 'bigint') }} as numeric){{ times }}){{ window }}, cast({{ count }} as numeric))
        as double precision) * cast(5.048709793414476e-29 as double precision)
{%- endmacro %}

{#- Spark: the same mean in its 64-bit integers and 38-digit decimals, kept within their bounds
    as DuckDB's hugeint formula is: the high parts' sum (bigint: values below 1 and up to 2^31
    users) divided by the count (div, integers) as quotient and remainder, the remainder times
    2^62 plus the low parts' sum (decimal(38, 0)) divided again, and the whole, an integer in
    units of 2^-94, rounded to a double once (a decimal's double is correctly rounded). Its
    sum / count of doubles depended on the order the partitions arrived in. -#}
{% macro _exact_mean_spark(value, weight=none, over=none) -%}
    {%- set window = ' ' ~ over if over else '' -%}
    {%- set times = ' * cast(' ~ weight ~ ' as bigint)' if weight is not none else '' -%}
    {%- set count = '(sum(cast(' ~ weight ~ ' as bigint))' ~ window ~ ')' if weight is not none else '(count(*)' ~ window ~ ')' -%}
    {%- set high_sum = '(sum(' ~ rank_metrics._exact_high(value, 'bigint') ~ times ~ ')' ~ window ~ ')' -%}
    {%- set low_sum = 'sum(cast(' ~ rank_metrics._exact_low(value, 'bigint') ~ ' as decimal(38, 0))' ~ times ~ ')' ~ window -%}
    {%- set quotient = '(' ~ high_sum ~ ' div ' ~ count ~ ')' -%}
    {%- set remainder = '(' ~ high_sum ~ ' - ' ~ quotient ~ ' * ' ~ count ~ ')' -%}
    cast(cast({{ quotient }} as decimal(38, 0)) * 4611686018427387904
         + ((cast({{ remainder }} as decimal(38, 0)) * 4611686018427387904 + {{ low_sum }}) div {{ count }})
        as double) * cast(5.048709793414476e-29 as double)
{%- endmacro %}
