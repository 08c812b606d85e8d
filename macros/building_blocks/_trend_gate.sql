{#- The trend gate's query (SPEC §8), which the dbt test no_significant_drop and Python's
    rank_metrics.no_significant_drop both run, on a table of evaluate_over_time's rows
    (`relation`, with `columns`): for each group, metric and k, the latest complete period
    (value x, standard error s) against the `periods` complete periods before it (v_i, s_i,
    n_i): base = sum n_i v_i / sum n_i, s_B = sqrt(sum (n_i s_i)^2) / sum n_i,
    z = (x - base) / sqrt(s^2 + s_B^2), p = Phi(z). A row for each where p < alpha and
    base - x >= min_drop: <group columns>, metric, k, <period> (the latest), value, base, z,
    p_value, alpha. Periods share users, so this treats them as independent (an
    approximation). A standard error of NULL (one user) counts as 0; z is NULL, and nothing
    fails, where s^2 + s_B^2 is 0. A table holds one row per period, group, metric and k, so the
    period orders each group's rows without ties. -#}
{% macro _trend_drops(relation, columns, periods, alpha, min_drop, period) -%}
    {%- set keys = [] -%}
    {%- for name in (rank_metrics._table_groups(columns, period) | trim).split('\n') if name -%}{%- do keys.append(rank_metrics.quote_identifier(name)) -%}{%- endfor -%}
    {%- do keys.extend(['metric', 'k']) -%}
    {%- set double = rank_metrics.type_double() -%}
    {%- set p = rank_metrics.quote_identifier(period) -%}
    {%- set variance = '(coalesce(l.std_error, 0) * coalesce(l.std_error, 0) + b.rm_spread * b.rm_spread)' -%}
with rm_complete as (
    select {% for key in keys %}rm_t.{{ key }}, {% endfor %}rm_t.{{ p }} as rm_period, cast(rm_t.value as {{ double }}) as value,
        cast(rm_t.std_error as {{ double }}) as std_error, rm_t.n_users,
        row_number() over (partition by {% for key in keys %}rm_t.{{ key }}{{ ', ' if not loop.last }}{% endfor %} order by rm_t.{{ p }} desc) as rm_back
    from {{ relation }} as rm_t
    where rm_t.complete and rm_t.n_users > 0
),
rm_baseline as (
    select {% for key in keys %}{{ key }}, {% endfor %}
        sum(n_users * value) / sum(n_users) as rm_base,
        sqrt(sum((n_users * coalesce(std_error, 0)) * (n_users * coalesce(std_error, 0)))) / sum(n_users) as rm_spread
    from rm_complete
    where rm_back between 2 and {{ periods | int + 1 }}
    group by {% for key in keys %}{{ key }}{{ ', ' if not loop.last }}{% endfor %}
),
rm_judged as (
    select {% for key in keys %}l.{{ key }}, {% endfor %}l.rm_period as {{ p }}, l.value, b.rm_base as base,
        -- (the squares, not the errors, are tested for 0: an error of 1e-200 squares to 0)
        case when {{ variance }} = 0 then null else (l.value - b.rm_base) / sqrt({{ variance }}) end as z
    from rm_complete as l
    inner join rm_baseline as b
        on {% for key in keys %}b.{{ key }} = l.{{ key }}{{ ' and ' if not loop.last }}{% endfor %}
            {#- k is NULL in a cutoff-free metric's (R-precision's) rows: those are matched as NULL #}
            or ({% for key in keys if key != 'k' %}b.{{ key }} = l.{{ key }} and {% endfor %}b.k is null and l.k is null)
    where l.rm_back = 1
),
rm_tested as (
    select *,
        case when z < 0 then {{ rank_metrics._two_sided_normal_p('-z') }} / 2
            else 1 - {{ rank_metrics._two_sided_normal_p('z') }} / 2 end as p_value
    from rm_judged
)
select {% for key in keys %}{{ key }}, {% endfor %}{{ p }}, value, base, z, p_value,
    {{ rank_metrics._number_literal(alpha, 'alpha') }} as alpha
from rm_tested
where z is not null and base - value >= {{ rank_metrics._number_literal(min_drop, 'min_drop') }}
    and p_value < {{ rank_metrics._number_literal(alpha, 'alpha') }}
{%- endmacro %}

{#- The group columns of a built metric table: those before `metric`, but the period; one a line. -#}
{% macro _table_groups(columns, period) -%}
    {%- set names = columns | map(attribute='name') | list -%}
    {%- set groups = [] -%}
    {%- for name in names[:names.index('metric')] if name != period -%}{%- do groups.append(name) -%}{%- endfor -%}
    {{- groups | join('\n') -}}
{%- endmacro %}
