{#- The filter on the predictions that rm_lists or rm_source read (alias `alias`) that keeps only
    the lists of users truth knows (rm_truth_users), or nothing. Under users='truth', 'judged' and
    'both' no other user is evaluated, so their lists need no check: often most of them (lists
    for every user, truth for a few). Under 'both' every variant must filter: _pattern_sums then
    counts rm_prediction_users as the users evaluated. DuckDB and PostgreSQL make it a semi join
    that DuckDB also applies inside the scan: MAP@12 at 10M rows with 5% of the users in truth,
    0.34 s -> 0.18 s; with half of them, 12% less CPU and no wall time measurably (bench/README,
    "Eighth round"). -#}
{% macro default__lists_truth_knows(plan, alias) -%}
    {%- if plan.users in ('truth', 'judged', 'both') -%}
    where exists (
        select 1 from rm_truth_users as t
        where {{ rank_metrics._equal_prefix(plan.truth_by, alias, 't') }}{{ alias }}.{{ plan.user }} = t.rm_user
    )
    {%- endif -%}
{%- endmacro %}

{#- Spark computed rm_lists at each of its two references, each time with this semi join (truth
    aggregated and joined again): slower than checking every list (10M rows: MAP@12 2.02x its
    bound against 1.81x without; bench/README, "Eighth round"). Under users='both' it is kept,
    on truth's rows rather than rm_truth_users (no second aggregate of truth): there the lists'
    users are counted (_pattern_sums) with no join of the lists with truth's users, as one
    aggregate with the lists to number (bench/README, issue 41, "Spark under every
    convention"). -#}
{% macro spark__lists_truth_knows(plan, alias) -%}
    {%- if plan.users == 'both' -%}
    where exists (
        select 1 from {{ plan.truth }} as t
        where {{ rank_metrics._equal_prefix(plan.truth_by, alias, 't') }}{{ alias }}.{{ plan.user }} = t.{{ plan.truth_user }}
    )
    {%- endif -%}
{%- endmacro %}
