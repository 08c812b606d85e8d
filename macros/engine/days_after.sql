{#- A timestamp (`timestamp`, its SQL) plus a whole number of days: the end of a period's
    window of labels (evaluate_over_time). -#}
{% macro default__days_after(timestamp, days) -%}
    {{ timestamp }} + interval '{{ days | int }}' day
{%- endmacro %}

{#- PostgreSQL and Redshift read an interval's unit inside its text. -#}
{% macro postgres__days_after(timestamp, days) -%}
    {{ timestamp }} + interval '{{ days | int }} days'
{%- endmacro %}

{% macro snowflake__days_after(timestamp, days) -%}
    dateadd(day, {{ days | int }}, {{ timestamp }})
{%- endmacro %}

{#- BigQuery's timestamp arithmetic is a function; a TIMESTAMP has no day unit past UTC's. -#}
{% macro bigquery__days_after(timestamp, days) -%}
    timestamp_add({{ timestamp }}, interval {{ days | int }} day)
{%- endmacro %}
