{#- The queries of check=True's sample (python/rank_metrics/api.py, _check): past 100,000 rows the
    reference reads the rows of a sample of users only, filtered here, in the engine. -#}

{#- The rows of both inputs together: whether to sample. -#}
{% macro _check_row_count(predictions, truth) -%}
select (select count(*) from {{ predictions }}) + (select count(*) from {{ truth }}) as rm_rows
{%- endmacro %}

{#- `size` users of either input (a user only one has is sampled too), the first in the order of
    the md5 of their id's text: the same users every run, with no seed to keep. A query, not
    values, so each input is filtered by it in the engine, which compares ids as the metric's
    join does. -#}
{% macro _check_sample(predictions, truth, user, truth_user, size) -%}
select rm_user from (
    select {{ user }} as rm_user from {{ predictions }}
    union
    select {{ truth_user }} from {{ truth }}
) as rm_users
order by md5(cast(rm_user as {{ rank_metrics.type_string() }})), rm_user
limit {{ size | int }}
{%- endmacro %}

{#- The rows of `relation` whose `user` is in the sample. -#}
{% macro _check_rows_of_sample(relation, user, sample) -%}
select * from {{ relation }} where {{ user }} in ({{ sample }})
{%- endmacro %}

{#- Every group of predictions (its by columns, quoted), sampled users' or not: users='truth'
    evaluates each truth user in every group. -#}
{% macro _check_groups(predictions, by) -%}
select distinct {{ by | join(', ') }} from {{ predictions }}
{%- endmacro %}
