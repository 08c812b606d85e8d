{#- What rm_truth_users' SELECT of truth rows starts with: nothing, or on Spark a hint to shuffle
    those rows by user once. m(u) is a count of distinct items per user, which Spark otherwise
    plans as two shuffles (by user and item, then by user); rows already hashed by user satisfy
    both aggregates (10M rows, cached: truth's counts alone 1.9 s -> 1.1 s; MAP@12 1.56x -> 1.34x
    the bound in one session, bench/README, issue 41, "Spark under every convention"). -#}
{% macro default__truth_by_user_hint() -%}
{%- endmacro %}

{% macro spark__truth_by_user_hint() -%}
/*+ REPARTITION(rm_user) */ {# -#}
{%- endmacro %}
