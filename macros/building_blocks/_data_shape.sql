{#- Queries of the data's shape, for warnings of a plausible wrong number (Python runs them
    where the column types call for one). -#}

{#- The least and greatest value of one column (quoted) of a relation: a rank column whose
    values all lie between 0 and 1 is most likely a score. -#}
{% macro _value_range(relation, column) -%}
select min({{ column }}) as rm_least, max({{ column }}) as rm_greatest
from {{ relation }} as rm_r
{%- endmacro %}


{#- The unread columns of predictions whose values min and max can compare on every engine (text,
    numbers, dates and times), at most eight: a column that differs between two rows of one
    list at one position tells lists merged from several models, days or versions. Appended to
    `found` (a name may hold any character, a line break too). -#}
{% macro _comparable_unread_columns(predictions_columns, names, found) -%}
    {%- set used = [names.user, names.item, names.rank, names.score] + (names.by or []) -%}
    {%- for column in predictions_columns or [] if column.name not in used and found | length < 8 -%}
        {%- set family = rank_metrics._type_family(column.data_type) | trim -%}
        {%- if family in ['string', 'number', 'floating point', 'timestamp'] or family.startswith(('date', 'timestamp')) -%}
            {%- do found.append(column.name) -%}
        {%- endif -%}
    {%- endfor -%}
{%- endmacro %}

{#- The data's shape in one row, from one pass over each table, cheap on clean data:
      rm_unproven: ordered by rank, the number of lists whose first ranks (within the largest k,
        and at least the first three) are not proven to be 1, 2, 3, … each once (the metric
        query's own proof); NULL ordered by score, where nothing is proven. Only when it is not 0
        does _shape_collisions read predictions again.
      rm_predictions_user, rm_predictions_item, rm_truth_user, rm_truth_item: the least id with a
        space at its start or end of each text id column, or NULL: ids are compared exactly, so
        'b ' in one table never meets 'b' in the other.
    (Spark inlines a CTE into every place that reads it: each list is read here once, and the
    collisions are a query of their own.) `plan`: the macros' plan of the call. -#}
{% macro _shape_summary(plan, predictions_columns, truth_columns) -%}
    {%- set ranked = plan.names.rank is not none -%}
select {{ 'sum(case when rm_l.rm_proven = 0 then 1 else 0 end)' if ranked else 'cast(null as bigint)' }} as rm_unproven,
    {{ rank_metrics._padded_id('rm_l.rm_user', predictions_columns, plan.names.user) }} as rm_predictions_user,
    min(rm_l.rm_padded_item) as rm_predictions_item,
    min(t.rm_truth_user) as rm_truth_user, min(t.rm_truth_item) as rm_truth_item
from (
    -- a row per list: its item with a space at either end, and whether its first ranks are proven
    select rm_p.{{ plan.user }} as rm_user,
        {{ rank_metrics._padded_id('rm_p.' ~ plan.item, predictions_columns, plan.names.item) }} as rm_padded_item
        {%- if ranked %},
        {{ rank_metrics._list_proof(plan) }} as rm_proven
        {%- endif %}
    from {{ plan.predictions }} as rm_p
    group by {% for column in plan.by %}rm_p.{{ column }}, {% endfor %}rm_p.{{ plan.user }}
) as rm_l
cross join (
    select {{ rank_metrics._padded_id('rm_t.' ~ plan.truth_user, truth_columns, plan.names.truth_user) }} as rm_truth_user,
        {{ rank_metrics._padded_id('rm_t.' ~ plan.truth_item, truth_columns, plan.names.truth_item) }} as rm_truth_item
    from {{ plan.truth }} as rm_t
) as t
{%- endmacro %}

{#- The aggregate that proves a list's first ranks (rm_p's rows of one list) are 1, 2, 3, … each
    once, within the largest k and at least the first three: 1 when proven. -#}
{% macro _list_proof(plan) -%}
    {%- set rank = rank_metrics._rank_for_cuts(plan, 'rm_p.') -%}
    {%- set whole_rank = rank if plan.rank_is_whole else 'case when ' ~ rank ~ ' = round(' ~ rank ~ ') then ' ~ rank ~ ' else 0 end' -%}
    {{- rank_metrics._ranks_are_positions(rank, whole_rank, [plan.ks | max, 3] | max) -}}
{%- endmacro %}

{#- Two rows of one list that collide, one row (rm_user, rm_at, rm_item, rm_same, rm_varying), or
    none. Ordered by rank, rows collide at one rank within the largest k (the rows the metrics
    read, and at least the first three) in the lists _list_proof does not prove; ordered by
    score, at one item. Lists merged from several days or models collide at two places or more,
    and an unread column (rm_varying, the first such) differs between the rows at each: the
    list's least place is given. One row twice (the same item at one rank, or the same score for
    one item: rm_same), as a table appended to itself or a join that repeats rows makes, is given
    at its place, when no unread column differs. A rank shared by different items with nothing
    else differing, and one place where an item's attribute differs, are ties, left to the
    tie-break and duplicates rules, except where every one of a list's first ranks (1 to the
    last, two ranks or more) holds several rows of different items and nothing else tells them
    apart: lists merged without the column of their model or day, whose ranks restart at 1 (1, 2,
    1, 2), are given as (user, that last rank, NULL, false, NULL). Run when _shape_summary's
    rm_unproven is not 0. -#}
{% macro _shape_collisions(plan, predictions_columns) -%}
    {%- set unread = [] -%}
    {%- do rank_metrics._comparable_unread_columns(predictions_columns, plan.names, unread) -%}
    {%- set ranked = plan.names.rank is not none -%}
    {%- set at = plan.order_by if ranked else plan.item -%}
    {#- ids of any type compare: PostgreSQL has no min() of a bytea or a uuid, so the same item is
        one distinct value, and the example is given as text -#}
    {%- set same = ('count(distinct rm_p.' ~ plan.item ~ ') = 1') if ranked else ('min(rm_p.' ~ plan.order_by ~ ') = max(rm_p.' ~ plan.order_by ~ ')') -%}
    {%- set string = rank_metrics.type_string() -%}
    {%- set groups = [] -%}{%- for column in plan.by -%}{%- do groups.append('rm_by_' ~ loop.index) -%}{%- endfor -%}
with
{%- if ranked %}
rm_unproven as (
    select {% for column in plan.by %}rm_p.{{ column }} as rm_by_{{ loop.index }}, {% endfor %}rm_p.{{ plan.user }} as rm_user
    from {{ plan.predictions }} as rm_p
    group by {% for column in plan.by %}rm_p.{{ column }}, {% endfor %}rm_p.{{ plan.user }}
    having {{ rank_metrics._list_proof(plan) }} = 0
),
{%- endif %}
{%- if ranked %}
rm_places as (
    -- each list's places within the cut: how many, how many hold several rows, the first and
    -- the last, and the fewest distinct items at one of them
    select {% for name in groups %}{{ name }}, {% endfor %}rm_user, count(*) as rm_places,
        sum(case when rm_rows > 1 then 1 else 0 end) as rm_shared, min(rm_at) as rm_first, max(rm_at) as rm_last,
        min(rm_items) as rm_fewest_items
    from (
        select {% for column in plan.by %}rm_p.{{ column }} as rm_by_{{ loop.index }}, {% endfor %}rm_p.{{ plan.user }} as rm_user,
            rm_p.{{ at }} as rm_at, count(*) as rm_rows, count(distinct rm_p.{{ plan.item }}) as rm_items
        from {{ plan.predictions }} as rm_p
        inner join rm_unproven as u
            on u.rm_user = rm_p.{{ plan.user }}{% for column in plan.by %} and u.rm_by_{{ loop.index }} = rm_p.{{ column }}{% endfor %}
        where {{ rank_metrics._rank_for_cuts(plan, 'rm_p.') }} <= {{ [plan.ks | max, 3] | max }}
        group by {% for column in plan.by %}rm_p.{{ column }}, {% endfor %}rm_p.{{ plan.user }}, rm_p.{{ at }}
    ) as rm_place
    group by {% for name in groups %}{{ name }}, {% endfor %}rm_user
),
{%- endif %}
rm_keys as (
    -- the places two rows of a list share (ordered by rank: within the cut of the lists not proven)
    select {% for column in plan.by %}rm_p.{{ column }} as rm_by_{{ loop.index }}, {% endfor %}rm_p.{{ plan.user }} as rm_user, rm_p.{{ at }} as rm_at
    from {{ plan.predictions }} as rm_p
    {%- if ranked %}
    inner join rm_unproven as u
        on u.rm_user = rm_p.{{ plan.user }}{% for column in plan.by %} and u.rm_by_{{ loop.index }} = rm_p.{{ column }}{% endfor %}
    where {{ rank_metrics._rank_for_cuts(plan, 'rm_p.') }} <= {{ [plan.ks | max, 3] | max }}
    {%- endif %}
    group by {% for column in plan.by %}rm_p.{{ column }}, {% endfor %}rm_p.{{ plan.user }}, rm_p.{{ at }}
    having count(*) > 1
),
rm_colliding as (
    select {% for column in plan.by %}k.rm_by_{{ loop.index }}, {% endfor %}k.rm_user, k.rm_at,
        min(cast(rm_p.{{ plan.item }} as {{ string }})) as rm_item, {{ same }} as rm_same,
        {% if unread -%}
        case{% for name in unread %} when min(rm_p.{{ rank_metrics.quote_identifier(name) }}) <> max(rm_p.{{ rank_metrics.quote_identifier(name) }}) then {{ rank_metrics.string_literal(name) }}{% endfor %} end as rm_varying
        {%- else -%}
        cast(null as {{ string }}) as rm_varying
        {%- endif %}
    from {{ plan.predictions }} as rm_p
    inner join rm_keys as k
        on k.rm_user = rm_p.{{ plan.user }} and k.rm_at = rm_p.{{ at }}{% for column in plan.by %} and k.rm_by_{{ loop.index }} = rm_p.{{ column }}{% endfor %}
    group by {% for column in plan.by %}k.rm_by_{{ loop.index }}, {% endfor %}k.rm_user, k.rm_at
)
select rm_user, rm_at, rm_item, rm_same, rm_varying
from (
    select rm_user, min(rm_at) as rm_at, min(rm_item) as rm_item, false as rm_same, min(rm_varying) as rm_varying
    from rm_colliding
    where rm_varying is not null
    group by {% for name in groups %}{{ name }}, {% endfor %}rm_user
    having count(*) > 1
    union all
    select rm_user, rm_at, rm_item, rm_same, cast(null as {{ string }}) as rm_varying
    from rm_colliding
    where rm_same and rm_varying is null
    {%- if ranked %}
    union all
    -- a list tied at every one of its first ranks (where a column differs too, the row above
    -- that names it comes first)
    select rm_user, rm_last as rm_at, cast(null as {{ string }}) as rm_item, false as rm_same, cast(null as {{ string }}) as rm_varying
    from rm_places
    where rm_places >= 2 and rm_shared = rm_places and rm_first = 1 and rm_last = rm_places and rm_fewest_items > 1
    {%- endif %}
) as rm_found
order by case when rm_varying is null then 1 else 0 end, case when rm_same then 0 else 1 end, rm_user, rm_at
limit 1
{%- endmacro %}

{#- An aggregate: the least value of a text id column (`column`, its SQL) with a space at its
    start or end, NULL when none has or the column (`name` among `columns`) is not text. -#}
{% macro _padded_id(column, columns, name) -%}
    {%- if rank_metrics._type_family(rank_metrics._column_type(columns, name) | trim) | trim == 'string' -%}
        min(case when {{ column }} like ' %' or {{ column }} like '% ' then {{ column }} end)
    {%- else -%}
        {#- an aggregate all the same: one row, whatever the table's size -#}
        min(cast(null as {{ rank_metrics.type_string() }}))
    {%- endif -%}
{%- endmacro %}

{#- The warnings of the data's shape, appended to `messages` (a macro returns only text):
    `colliding` is _shape_collisions' row or none (no rows collide), `padded` the last four
    values of _shape_summary's row. -#}
{% macro _shape_messages(messages, plan, colliding, padded, implied=[], other='truth') -%}
    {%- set names = plan.names -%}
    {#- `other`: what the plan calls truth, by its argument's name (beyond_accuracy's is train,
        whose calls have no tie_break: tied items are read in item order) -#}
    {%- set others = other ~ "'s" -%}
    {#- `implied`: grouping columns the caller adds, which by= must not name (evaluate_over_time's period) -#}
    {%- set by = (names.by or []) | reject('in', implied) | list -%}
    {%- if colliding is not none -%}
        {%- set user, at, item, same, varying = colliding -%}
        {%- set where = "user " ~ rank_metrics._shown(user) ~ (" has two rows at rank " ~ at if names.rank is not none else " has item " ~ rank_metrics._shown(item) ~ " twice") -%}
        {%- if varying is not none -%}
            {%- set within = " within one group of by=" ~ rank_metrics._shown(by) if by else "" -%}
            {%- set within = within ~ (" and " if by else " within one ") ~ implied | join(', ') if implied else within -%}
            {%- do messages.append("lists merged: " ~ where ~ within
                ~ ", and their column " ~ rank_metrics._shown(varying) ~ ", which by= does not name, differs between them: lists of several "
                ~ varying ~ " values are read as one list, and the number is no " ~ varying ~ "'s; pass by=" ~ (rank_metrics._shown_as_given(by + [varying]) if by else rank_metrics._shown(varying))
                ~ " for a row per " ~ varying) -%}
        {%- elif not same -%}
            {%- do messages.append("tied at every rank: user " ~ rank_metrics._shown(user) ~ " has more than one row at each rank from 1 to " ~ at
                ~ ", with different items at each and no other column that differs: the rows are read as one list whose items tie at every rank, "
                ~ "which is what lists merged without the column of their model or day look like; if they are several lists, the number is none of theirs: "
                ~ "pass by= the column that tells them apart, or add one; if they are true ties, "
                ~ ("tie_break= decides their order" if other == 'truth' else "they are read in item order")) -%}
        {%- else -%}
            {%- do messages.append("duplicate rows: " ~ where ~ (", item " ~ rank_metrics._shown(item) ~ " both times" if names.rank is not none else " at one score")
                ~ ", the same row twice (a table appended to itself, or a join that repeats rows): every repeat takes a place in the list and "
                ~ "moves the items after it down; drop the repeated rows") -%}
        {%- endif -%}
    {%- endif -%}
    {%- if padded is not none -%}
        {%- for argument in ['user', 'item'] -%}
            {%- set in_predictions, in_truth = padded[loop.index0], padded[loop.index0 + 2] -%}
            {%- if (in_predictions is none) != (in_truth is none) -%}
                {%- set column = names[argument] if in_truth is none else names['truth_' ~ argument] -%}
                {%- do messages.append(("predictions'" if in_truth is none else others) ~ " column " ~ rank_metrics._shown(column) ~ " holds ids with a space at the start or end, such as "
                    ~ rank_metrics._shown(in_predictions if in_truth is none else in_truth) ~ ", and " ~ (others if in_truth is none else "predictions'") ~ " have none: ids are compared exactly, "
                    ~ "so such an id never meets the same id without the space; strip the spaces") -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
{%- endmacro %}

{#- 'true' when the rank column may hold scores: rank= names a column not named as scores are
    (that name is warned of already: _order_column_warning) whose type is floating point or a
    decimal with a fraction; then _value_range's query says whether it does. -#}
{% macro _rank_may_be_a_score(predictions_columns, rank, score) -%}
    {%- if rank is not none and not (rank_metrics._order_column_warning(rank, score) | trim) -%}
        {%- set data_type = rank_metrics._column_type(predictions_columns, rank) | trim -%}
        {{- 'true' if rank_metrics._type_family(data_type) | trim == 'floating point'
                      or rank_metrics._is_fractional_decimal_column(predictions_columns, rank) | trim == 'True' else '' -}}
    {%- endif -%}
{%- endmacro %}

{#- The warning for a rank column whose every value lies strictly between 0 and 1 (least and
    greatest, from _value_range): a model's scores or probabilities passed as rank=, which reads
    every list backwards; '' for any other range (whole ranks, however sparse, and ranks of 1 and
    more raise nothing). -#}
{% macro _score_as_rank_message(rank, least, greatest) -%}
    {%- if least is not none and greatest is not none and 0 < least and greatest < 1 -%}
        rank column {{ rank_metrics._shown(rank) }} holds only values between 0 and 1 ({{ '%.3g' | format(least | float) }} to {{ '%.3g' | format(greatest | float) }}): it looks like a score, and read as ranks every list is taken lowest first; if higher is better, pass score={{ rank_metrics._shown(rank) }}
    {%- endif -%}
{%- endmacro %}
