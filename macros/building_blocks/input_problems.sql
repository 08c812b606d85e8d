{#- (Text is joined with ||, which every engine has: Redshift's concat takes two arguments only.)
    The data checks of SPEC §4 that need to read the tables, as one query: each row found is a
    problem, (argument, problem), and no rows means the input is fit. Takes the arguments of the
    metric macros. The dbt entry points run it before a model builds; Python runs it before a
    metric is computed. `checked_tables`: the inputs that can be read on their own (default both):
    dbt's ephemeral models and CTE names exist only inside the model's query, and the checks of
    the other input still run (a NULL rank in a table went unchecked beside an ephemeral truth:
    a user's trial). -#}
{% macro default__input_problems(predictions, truth, k) %}
{#- compare's own arguments are its to check; the baseline must be one of the groups -#}
{%- set options = dict(kwargs) -%}
{%- set checked = options.pop('checked_tables', ['predictions', 'truth']) -%}
{%- set baseline = options.pop('baseline', none) -%}
{#- Python's list of the problem texts that name arguments, with their mentions (_problem_literal) -#}
{%- set fragments = options.pop('problem_mentions', none) -%}
{%- for name in ['test', 'correction', 'family', 'alpha'] -%}{%- do options.pop(name, none) -%}{%- endfor -%}
{#- evaluate_over_time's: its period and time columns are checked as by columns are -#}
{%- set over_time = {} -%}
{%- for name in ['period', 'time', 'loaded_at', 'window', 'as_of', 'previous'] if name in options -%}
    {%- do over_time.update({name: options.pop(name)}) -%}
{%- endfor -%}
{#- each of its columns there, and a date or timestamp, before a query reads it -#}
{%- for name, table in [('period', 'predictions'), ('time', 'truth'), ('loaded_at', 'truth')] if over_time.get(name) is not none -%}
    {%- set problem = rank_metrics._time_type_problem(options.get(table ~ '_columns'), over_time[name], name, table) | trim -%}
    {%- if problem -%}{{ exceptions.raise_compiler_error("rank_metrics: " ~ problem) }}{%- endif -%}
{%- endfor -%}
{%- set plan = {} -%}
{%- do rank_metrics._plan(plan, predictions, truth, k, **options) -%}
{#- metrics= named (evaluate, compare): what tie_break='average' cannot score is said before the
    data's problems, which would otherwise be fixed first only to meet it (a dbt user's trial) -#}
{%- if options.get('metrics') is not none %}{% do rank_metrics._check_ties_by_expectation(plan) %}{% endif -%}
{%- set text = rank_metrics.type_string() -%}
{%- set prediction_checks = [('user', plan.user), ('item', plan.item),
                             ('score' if plan.order_direction == 'desc' else 'rank', plan.order_by)] -%}
{%- for column in plan.by -%}{%- do prediction_checks.append(('by', column)) -%}{%- endfor -%}
{%- if over_time.get('period') is not none -%}{%- do prediction_checks.append(('period', rank_metrics.quote_identifier(over_time.period))) -%}{%- endif -%}
{%- set truth_checks = [(rank_metrics._truth_argument('user', plan.truth_user, plan.user), plan.truth_user),
                        (rank_metrics._truth_argument('item', plan.truth_item, plan.item), plan.truth_item)] -%}
{%- if plan.relevance is not none -%}{%- do truth_checks.append(('relevance', plan.relevance)) -%}{%- endif -%}
{%- for column in plan.truth_by -%}{%- do truth_checks.append(('by', column)) -%}{%- endfor -%}
{%- for name in ['time', 'loaded_at'] if over_time.get(name) is not none -%}{%- do truth_checks.append((name, rank_metrics.quote_identifier(over_time[name]))) -%}{%- endfor -%}
{#- the numeric columns that can hold NaN or ±inf (not integers), (argument, column): those are
    rejected like NULL -#}
{%- set order_is_integer = plan.rank_is_integer if plan.order_direction == 'asc' else plan.score_is_integer -%}
{%- set prediction_numbers = [] if order_is_integer else [prediction_checks[2]] -%}
{%- set truth_numbers = [('relevance', plan.relevance)] if plan.relevance is not none and not plan.relevance_is_integer else [] -%}
{#- ids in a floating point column (a polars float column, say), or a decimal one (PostgreSQL's
    numeric), can hold NaN, which equals NaN in SQL's joins but is no id; list-shaped items are
    read from their lists, not checked here -#}
{%- set prediction_ids = [('user', plan.names.user)] + ([] if plan.shapes.predictions.list else [('item', plan.names.item)]) -%}
{%- for name in plan.names.by -%}{%- do prediction_ids.append(('by', name)) -%}{%- endfor -%}
{%- set truth_ids = [(truth_checks[0][0], plan.names.truth_user)] + ([] if plan.shapes.truth.list else [(truth_checks[1][0], plan.names.truth_item)]) -%}
{%- for name in plan.names.truth_by -%}{%- do truth_ids.append(('by', name)) -%}{%- endfor -%}
{%- for numbers, columns, ids in [(prediction_numbers, options.get('predictions_columns'), prediction_ids),
                                  (truth_numbers, options.get('truth_columns'), truth_ids)] -%}
    {%- for argument, name in ids -%}
        {%- set found = (columns or []) | selectattr('name', 'equalto', name) | list -%}
        {%- if found and rank_metrics._can_hold_nan(found[0].data_type | string) | trim == 'True' -%}
            {%- do numbers.append((argument, rank_metrics.quote_identifier(name))) -%}
        {%- endif -%}
    {%- endfor -%}
{%- endfor -%}
{#- each table's column types, where known (quoted column -> type): how NaN is found in a number -#}
{%- set number_types = {'predictions': {}, 'truth': {}} -%}
{%- for table in ['predictions', 'truth'] -%}
    {%- for column in options.get(table ~ '_columns') or [] -%}
        {%- do number_types[table].update({rank_metrics.quote_identifier(column.name): column.data_type | string}) -%}
    {%- endfor -%}
{%- endfor -%}
{#- each check, (number, argument, the problem's text or NULL when there is none); the first
    problem by number is the one reported: NULLs, then NaN, then empty input -#}
{%- set checks = [] -%}
{%- for table, prefix, nulls, numbers, offset in [('predictions', 'p.rm_prediction', prediction_checks, prediction_numbers, 0),
                                                  ('truth', 't.rm_truth', truth_checks, truth_numbers, 100)] if table in checked -%}
    {%- for kind, columns, found, rule in [('nulls', nulls, 'NULL', 'must not be NULL'),
                                           ('nonfinite', numbers, 'NaN or an infinite value', 'must be finite numbers')] -%}
        {%- for argument, column in columns -%}
            {%- set count = prefix ~ '_' ~ kind ~ '_' ~ loop.index -%}
            {%- do checks.append((offset + (50 if kind == 'nonfinite' else 0) + loop.index, argument,
                'case when ' ~ count ~ ' > 0 then ' ~ rank_metrics.string_literal(table ~ ' has ') ~ ' || cast(' ~ count ~ ' as ' ~ text ~ ') || '
                ~ 'case when ' ~ count ~ ' = 1 then ' ~ rank_metrics.string_literal(' row') ~ ' else ' ~ rank_metrics.string_literal(' rows') ~ ' end || '
                ~ rank_metrics.string_literal(' with ' ~ found ~ ' in column ' ~ column ~ '; ' ~ argument ~ ' values ' ~ rule) ~ ' end')) -%}
        {%- endfor -%}
    {%- endfor -%}
{%- endfor -%}
{#- users='truth', 'judged' and 'predictions' need a row to take their users from -#}
{%- set users_named = rank_metrics._mention('users', plan.users, 'value') -%}
{%- set first_row = {'truth': {'table': 'truth', 'where': rank_metrics._is_relevant(plan, rank_metrics._truth_grade(plan)),
                                'problem': "truth has no relevant rows, so " ~ users_named ~ " has no user to evaluate"},
                     'judged': {'table': 'truth', 'where': none, 'problem': "truth has no rows, so " ~ users_named ~ " has no user to evaluate"},
                     'predictions': {'table': 'predictions', 'where': none,
                                     'problem': "predictions has no rows, so " ~ users_named ~ " has no user to evaluate"}}.get(plan.users) -%}
{#- over time, a period without labels yet is a row of its own (n_users 0), not a problem -#}
{%- set first_row = first_row if first_row is not none and first_row.table in checked and not over_time else none -%}
{%- if first_row is not none -%}
    {#- named by the users rule that needs the row: 'truth: truth has …' would say truth twice -#}
    {%- do checks.append((200, 'users', 'case when f.rm_rows = 0 then ' ~ rank_metrics._problem_literal(first_row.problem, fragments) ~ ' end')) -%}
{%- endif -%}
with
{%- for cte, name, relation, nulls, numbers, table in [('rm_prediction_counts', 'rm_prediction', plan.predictions, prediction_checks, prediction_numbers, 'predictions'),
                                                       ('rm_truth_counts', 'rm_truth', plan.truth, truth_checks, truth_numbers, 'truth')] %}
{%- if table in checked %}
{{ rank_metrics._problem_counts(cte, name, relation, nulls, numbers, number_types[table]) }},
{%- else %}
{{ cte }} as (select 1 as rm_unread),
{%- endif %}
{%- endfor %}
{%- if first_row is not none %}
rm_first_row as (
    -- whether the table has a row at all (a relevant one, for truth under users='truth'): one row is enough
    select count(*) as rm_rows
    from (
        select 1 as rm_row
        from {{ plan[first_row.table] }} as rm_f
        {%- if first_row.where is not none %}
        where {{ first_row.where }}
        {%- endif %}
        limit 1
    ) as rm_first
),
{%- endif %}
rm_problems as (
    -- each count is read once: the checks meet the one row of counts (engines that inline a CTE
    -- read by several branches would count again for every branch)
    select rm_check, argument, problem
    from (
        select c.rm_check, c.argument,
            case c.rm_check
            {%- for number, argument, problem in checks %}
                when {{ number }} then {{ problem }}
            {%- endfor %}
            end as problem
        from rm_prediction_counts as p
        cross join rm_truth_counts as t
        {%- if first_row is not none %}
        cross join rm_first_row as f
        {%- endif %}
        cross join (
            {%- for number, argument, problem in checks %}
            select {{ number }} as rm_check, {{ rank_metrics.string_literal(argument) }} as argument{{ '\n            union all' if not loop.last }}
            {%- endfor %}
        ) as c
    ) as rm_found
    where problem is not null
{#- 2^grade - 1 is a double only up to grade 1023, and a sum of such gains needs room: past
    1000, DCG would be inf (NDCG NaN) or an engine's overflow error -#}
{%- if 'dcg' in plan.sums and plan.gain == 'exponential' and plan.relevance is not none and 'truth' in checked %}
union all
select 160 as rm_check, 'relevance' as argument,
    {{ rank_metrics.string_literal('truth has grade ') }} || cast(rm_largest as {{ text }})
        || {{ rank_metrics._problem_literal(' in column ' ~ plan.names.relevance ~ "; under " ~ rank_metrics._mention('gain', 'exponential', 'value') ~ " a grade adds 2^grade - 1, which past grade 1000 "
                                          ~ "is no longer a finite double: grades must be at most 1000 (or use " ~ rank_metrics._mention('gain', 'linear', 'value') ~ ")", fragments) }} as problem
from (
    select max({{ plan.relevance }}) as rm_largest
    from {{ plan.truth }} as rm_t
) as rm_grades
where rm_largest > 1000
{%- endif %}
{#- a list is a (by, user)'s, and over time a (period, by, user)'s: the same item in a user's lists
    of two days is no repeat -#}
{%- set list_by = ([rank_metrics.quote_identifier(over_time.period)] if over_time.get('period') is not none else []) + plan.by -%}
{%- set list_by_names = ([over_time.period] if over_time.get('period') is not none else []) + plan.names.by -%}
{%- if plan.duplicates == 'error' and 'predictions' in checked %}
union all
select 300 as rm_check, 'duplicates' as argument, problem from (
    {%- set source = " (set by " ~ rank_metrics._mention('convention', plan.convention, 'value', "convention=" ~ rank_metrics._shown(plan.convention)) ~ ")" if 'duplicates' in plan.preset_options and not plan.get('duplicates_for_ties') else "" %}
    {%- set why = " (" ~ rank_metrics._mention('tie_break', 'average', 'value') ~ " reads each item once; " ~ rank_metrics._mention('duplicates', 'collapse', 'value') ~ " keeps an item's best place)" if plan.get('duplicates_for_ties') else "" %}
    {#- and its group, where a user's lists of two models may hold the same item (a new user's trial) -#}
    {%- set group = [] -%}
    {%- for name in list_by_names -%}
        {%- do group.append(rank_metrics.string_literal((' (' if loop.first else ', ') ~ name ~ ' = ') ~ ' || coalesce(cast(' ~ list_by[loop.index0] ~ ' as ' ~ text ~ "), 'NULL')") -%}
    {%- endfor %}
    {#- the argument leads the message: the rule comes after the repeat, not twice in front -#}
    select ({{ rank_metrics.string_literal("user ") }} || cast({{ plan.user }} as {{ text }}) || {{ rank_metrics.string_literal(' has item ') }} || cast({{ plan.item }} as {{ text }}) || {{ rank_metrics.string_literal(' more than once in predictions') }}
        {%- if group %} || {{ group | join(' || ') }} || ')'{% endif %} || {{ rank_metrics._problem_literal(", which " ~ rank_metrics._mention('duplicates', 'error', 'value') ~ source ~ " refuses" ~ why, fragments) }}) as problem
    from {{ plan.predictions }} as rm_p
    group by {{ rank_metrics._column_prefix(list_by) }}{{ plan.user }}, {{ plan.item }}
    having count(*) > 1
    order by {{ rank_metrics._column_prefix(list_by) }}{{ plan.user }}, {{ plan.item }}
    limit 1
) as rm_first_duplicate
{%- endif %}
{%- if plan.shapes.predictions.list and 'predictions' in checked %}
union all
select 310 as rm_check, 'predictions_shape' as argument, problem from (
    select ({{ rank_metrics._problem_literal(rank_metrics._mention('predictions_shape', 'list', 'value') ~ " reads a row as a user's whole list, but user ", fragments) }} || cast({{ plan.user }} as {{ text }})
        || {{ rank_metrics.string_literal(' has ') }} || cast(count(*) as {{ text }}) || {{ rank_metrics._problem_literal(' rows in predictions; '
            ~ ('' if plan.by else 'the lists of several models need ' ~ rank_metrics._mention('by', none, 'equals') ~ ' naming the column that tells them apart; ')
            ~ 'a row per item is long form: pass its rank or score, not a list shape', fragments) }}) as problem
    from {{ predictions }} as rm_p
    group by {{ rank_metrics._column_prefix(list_by) }}{{ plan.user }}
    having count(*) > 1
    order by {{ rank_metrics._column_prefix(list_by) }}{{ plan.user }}
    limit 1
) as rm_first_repeated_list
{%- endif %}
{#- text ids whose collation compares them without case or accents, where the type cannot tell:
    (argument, column name, quoted column) of each table's ids, list items aside -#}
{%- set ids = {'predictions': [('user', plan.names.user, plan.user)] + ([] if plan.shapes.predictions.list else [('item', plan.names.item, plan.item)]),
               'truth': [(truth_checks[0][0], plan.names.truth_user, plan.truth_user)] + ([] if plan.shapes.truth.list else [(truth_checks[1][0], plan.names.truth_item, plan.truth_item)])} %}
{%- for name in plan.names.by %}{% do ids.predictions.append(('by', name, plan.by[loop.index0])) %}{% endfor %}
{%- for name in plan.names.truth_by %}{% do ids.truth.append(('by', name, plan.truth_by[loop.index0])) %}{% endfor %}
{%- for table, columns, number in [('predictions', options.get('predictions_columns'), 316), ('truth', options.get('truth_columns'), 318)] if table in checked %}
    {%- for argument, name, column in ids[table] if rank_metrics._type_family(rank_metrics._column_type(columns, name) | trim) == 'string' %}
{{ rank_metrics.text_id_collation_problem(plan[table], column, name, table, argument, number) }}
    {%- endfor %}
{%- endfor %}
{#- a list column's arrays of more than one dimension, where the engine's type cannot tell -#}
{%- for table, relation, item, number in [('predictions', predictions, plan.item, 312), ('truth', truth, plan.truth_item, 314)]
    if plan.shapes[table].list and plan.shapes[table].separator is none and table in checked %}
{{- rank_metrics.nested_list_problem(plan, table, relation, item, number) }}
{%- endfor %}
{#- An empty text among a list column's items (' a b'.split(' ') begins with one): taken as an
    item, it held a position (or counted as relevant) and met nothing, where the same lists as
    text drop blank items (a new user's trial) -#}
{%- for table, rows, item, user, name, number in [('predictions', plan.predictions, plan.item, plan.user, plan.names.item, 316),
                                                   ('truth', plan.truth, plan.truth_item, plan.truth_user, plan.names.truth_item, 318)]
    if plan.shapes[table].list and plan.shapes[table].separator is none and table in checked
       and plan.shapes[table].element_type is not none and rank_metrics._type_family(plan.shapes[table].element_type) | trim == 'string' %}
union all
select {{ number }} as rm_check, {{ rank_metrics.string_literal(rank_metrics._truth_argument('item', plan.truth_item, plan.item) if table == 'truth' else 'item') }} as argument, problem from (
    select ({{ rank_metrics.string_literal('column ' ~ name ~ ' of ' ~ table ~ ' holds lists with an empty text as an item (user ') }}
        || cast({{ user }} as {{ text }}) || {{ rank_metrics.string_literal("'s, say), which would " ~ ('take a place in the list and meet nothing' if table == 'predictions' else 'count as a relevant item that nothing meets') ~ ": leave blanks out (' a b'.split(' ') gives one first; .split() none)") }}) as problem
    from {{ rows }} as rm_l
    where {{ item }} = ''
    order by {{ user }}
    limit 1
) as rm_first_blank_{{ table }}
{%- endfor %}
{#- A separator that no text holds leaves each whole text as one item (a wrong separator, when
    the texts hold another that lists use; a list of one item holds none), and long-form items
    that hold it are lists: both silent misses. `length(replace(…))` finds a text on every engine
    (Spark's `replace` takes the text itself, not a pattern). -#}
{#- the item separator, when one table's text is split by it, and the ones lists in text use -#}
{%- set separator = plan.shapes.predictions.separator or plan.shapes.truth.separator %}
{%- set usual_separators = [' ', ',', ';', '|', '\t'] %}
{%- for table, relation, item, name, number in [('predictions', predictions, plan.item, plan.names.item, 320),
                                               ('truth', truth, plan.truth_item, plan.names.truth_item, 330)] if table in checked %}
{%- set shape = plan.shapes[table] %}
{%- if shape.separator is not none or (separator and not shape.list and shape.text_items) %}
{%- set others = usual_separators | reject('equalto', separator) | list %}
union all
select {{ number }} as rm_check, {{ rank_metrics.string_literal('item_separator' if shape.list else table ~ '_shape') }} as argument,
    {%- if shape.list %}
    {{ rank_metrics.string_literal(rank_metrics._shown(separator) ~ ' is in no value of column ' ~ name ~ ' of ' ~ table ~ ', so each whole text would be one item, but ') }}
        || case {%- for other in others %} when rm_other_{{ loop.index }} > 0 then {{ rank_metrics.string_literal(rank_metrics._shown(other) | replace('\t', '\\t')) }}{% endfor %} end
        || {{ rank_metrics.string_literal(' is: name the separator its lists use') }} as problem
    {%- else %}
    {{ rank_metrics._problem_literal('values of column ' ~ name ~ ' of ' ~ table ~ ' hold the item separator ' ~ rank_metrics._shown(separator)
        ~ ", so each is a list of items, which long form would read as one item: pass " ~ rank_metrics._mention(table ~ '_shape', 'list', 'value'), fragments) }} as problem
    {%- endif %}
from (
    select {{ rank_metrics._holding_counts(item, [separator], 'rm_holding') }}
        {%- if shape.list %}, {{ rank_metrics._holding_counts(item, others, 'rm_other') }}{% endif %}
    from {{ relation }} as rm_s
) as rm_separators
{%- if shape.list %}
where rm_holding_1 = 0 and ({% for other in others %}rm_other_{{ loop.index }} > 0{{ ' or ' if not loop.last }}{% endfor %})
{%- else %}
where rm_holding_1 > 0
{%- endif %}
{%- endif %}
{#- Lists written in brackets, as Python and pandas write a list column to CSV ('[101, 202]'):
    split by the separator, the first item would be '[101' and the last '202]', silently missed -#}
{%- if shape.list and shape.separator is not none %}
union all
select {{ number + 5 }} as rm_check, {{ rank_metrics.string_literal(table ~ '_shape') }} as argument,
    {{ rank_metrics.string_literal('values of column ' ~ name ~ ' of ' ~ table ~ ' are lists in brackets, as Python and pandas write a list to a CSV file (') }}
        || substr(rm_bracketed, 1, 40) || {{ rank_metrics.string_literal("): split by the separator, the first and last items would keep the brackets; write each list as its items joined by the separator alone (" ~ rank_metrics._shown(separator) ~ ".join(items)), or a row per item") }} as problem
from (
    select min(case when {{ item }} like '[%]' then {{ item }} end) as rm_bracketed
    from {{ relation }} as rm_s
) as rm_brackets
where rm_bracketed is not null
{%- endif %}
{#- Lists whose items are joined by the separator and a space ('0100, 0200', as Python's
    ', '.join writes them) split by one of the two: every item but one would keep the rest of
    the join (' 0200', or '0200,' split by the space) and meet nothing, silently (a new user's trial) -#}
{%- if shape.list and shape.separator is not none %}
{%- set joins = [] %}
{%- for mark in [',', ';', '|'] if separator in [' ', '\t', mark] %}
{%- do joins.extend([mark ~ ' ', ' ' ~ mark] if separator == mark else [mark ~ separator, separator ~ mark]) %}
{%- endfor %}
{%- if joins %}
union all
select {{ number + 6 }} as rm_check, 'item_separator' as argument,
    {{ rank_metrics.string_literal('values of column ' ~ name ~ ' of ' ~ table ~ ' hold ') }}
        || case {%- for join in joins %} when rm_join_{{ loop.index }} > 0 then {{ rank_metrics.string_literal(rank_metrics._shown(join)) }}{% endfor %} end
        || ' (' || substr(rm_joined, 1, 40) || {{ rank_metrics.string_literal('): split by ' ~ rank_metrics._shown(separator) ~ ' alone, its items would keep the rest of it and meet nothing; pass ') }}
        || case {%- for join in joins %} when rm_join_{{ loop.index }} > 0 then {{ rank_metrics._problem_literal(rank_metrics._mention('item_separator', join, 'value', 'item_separator=' ~ rank_metrics._shown(join)), fragments) }}{% endfor %} end as problem
from (
    select {{ rank_metrics._holding_counts(item, joins, 'rm_join') }},
        min(case when {% for join in joins %}{{ rank_metrics._holds(item, join) }}{{ ' or ' if not loop.last }}{% endfor %} then {{ item }} end) as rm_joined
    from {{ relation }} as rm_s
) as rm_joins
where {% for join in joins %}rm_join_{{ loop.index }} > 0{{ ' or ' if not loop.last }}{% endfor %}
{%- endif %}
{%- endif %}
{%- endfor %}
{#- Lists in predictions' list column against truth whose item texts hold a separator that no
    predicted item holds: truth in a submission's form (one text per user) read as long form,
    where each whole text is one item. Looked at only then (it reads every predicted item), and
    not when truth_shape='long' says that truth's items are single items that hold a space. -#}
{%- if plan.shapes.predictions.list and not separator and not plan.shapes.truth.list and not plan.shapes.truth.given and plan.shapes.truth.text_items
      and checked | length == 2 %}
union all
select 340 as rm_check, 'truth_shape' as argument,
    {%- set example %}case {%- for candidate in usual_separators %} when t.rm_holding_{{ loop.index }} > 0 and p.rm_holding_{{ loop.index }} = 0 then t.rm_example_{{ loop.index }}{% endfor %} end{% endset %}
    {{ rank_metrics.string_literal('values of column ' ~ plan.names.truth_item ~ ' of truth hold ') }}
        || case {%- for candidate in usual_separators %} when t.rm_holding_{{ loop.index }} > 0 and p.rm_holding_{{ loop.index }} = 0 then {{ rank_metrics.string_literal(rank_metrics._shown(candidate) | replace('\t', '\\t')) }}{% endfor %} end
        || {{ rank_metrics.string_literal(" (such as '") }} || substr({{ example }}, 1, 40) || {{ rank_metrics.string_literal("'), which no predicted item holds: ") }}
        {#- one id with a stray space ('0200 '): the advice of shapes alone led a user to a silent miss -#}
        || case when trim({{ example }}) <> {{ example }} then {{ rank_metrics.string_literal("a space before or after an id makes it another id, so trim them if that is all; ") }} else '' end
        || {{ rank_metrics._problem_literal("if each holds a user's items in one text, pass " ~ rank_metrics._mention('truth_shape', 'list', 'value') ~ " and " ~ rank_metrics._mention('item_separator', none, 'equals')
                ~ " with it; if each is one item, pass " ~ rank_metrics._mention('truth_shape', 'long', 'value'), fragments) }} as problem
from (
    select {{ rank_metrics._holding_counts(plan.truth_item, usual_separators, 'rm_holding') }},
        {% for candidate in usual_separators %}min(case when {{ rank_metrics._holds(plan.truth_item, candidate) }} then {{ plan.truth_item }} end) as rm_example_{{ loop.index }}{{ ', ' if not loop.last }}{% endfor %}
    from {{ truth }} as rm_t
) as t
cross join (
    select {{ rank_metrics._holding_counts(plan.item, usual_separators, 'rm_holding') }}
    from {{ plan.predictions }} as rm_p
) as p
where {% for candidate in usual_separators %}(t.rm_holding_{{ loop.index }} > 0 and p.rm_holding_{{ loop.index }} = 0){{ ' or ' if not loop.last }}{% endfor %}
{%- endif %}
{%- if baseline is not none and plan.by | length == 1 and 'predictions' in checked %}
union all
select 400 as rm_check, 'baseline' as argument,
    {{ rank_metrics._baseline_problem(plan.by[0], plan.names.by[0], plan.by_types.get(plan.names.by[0]), baseline,
                                      rank_metrics._baseline_literal(plan, baseline), plan.predictions_table, fragments) }}
{%- endif %}
)
-- the first problem found is the one reported: NULLs, then NaN, then empty input, then duplicates,
-- then list shapes
select argument, problem
from rm_problems
order by rm_check
{%- endmacro %}


{#- One row of counts for the checks of one table: rows with NULL in each checked column
    (<name>_nulls_<i>) and, in each floating point or decimal column, rows with NaN or ±inf
    (<name>_nonfinite_<i>: not_a_finite_number, by the column's type in `types`, where known).
    Without such a column only the rows that hold a NULL are
    counted, and engines find those from their statistics (Parquet's, Spark's cached batches')
    without reading the rest. NaN is not left to statistics: Spark's cached batches leave NaN
    out of their bounds, so a filter on it would skip the very batch that holds it. -#}
{% macro _problem_counts(cte, name, relation, nulls, numbers, types) -%}
{{ cte }} as (
    select
        {%- for argument, column in nulls %}
        count(case when {{ column }} is null then 1 end) as {{ name }}_nulls_{{ loop.index }}{{ ',' if not loop.last or numbers }}
        {%- endfor %}
        {%- for argument, column in numbers %}
        count(case when {{ rank_metrics.not_a_finite_number(column, types.get(column)) }} then 1 end) as {{ name }}_nonfinite_{{ loop.index }}{{ ',' if not loop.last }}
        {%- endfor %}
    from {{ relation }} as rm_c
    {%- if not numbers %}
    where {% for argument, column in nulls %}{{ column }} is null{{ ' or ' if not loop.last }}{% endfor %}
    {%- endif %}
)
{%- endmacro %}


{#- For each text in `parts`, the rows whose text `column` holds it, as <name>_1, <name>_2, …:
    removing the part shortens the text, on every engine. -#}
{% macro _holding_counts(column, parts, name) -%}
    {%- for part in parts -%}
    count(case when {{ rank_metrics._holds(column, part) }} then 1 end) as {{ name }}_{{ loop.index }}{{ ', ' if not loop.last }}
    {%- endfor -%}
{%- endmacro %}

{#- Whether the text holds `part` (Spark's `replace` takes the text itself, not a pattern). -#}
{% macro _holds(column, part) -%}
    length(replace({{ column }}, {{ rank_metrics.string_literal(part) }}, '')) < length({{ column }})
{%- endmacro %}

{#- A check query's problem of a baseline that is no value of the by column (compare's and
    compare_beyond_accuracy's): its expression and the rest of its select, a row only when no row
    of `predictions` has `by_column` (quoted; `by_name` as the user named it, `by_type` its type
    or none) equal to `baseline_literal`, naming the column's first ten values. -#}
{% macro _baseline_problem(by_column, by_name, by_type, baseline, baseline_literal, predictions, fragments=none) -%}
{%- set text = rank_metrics.type_string() -%}
{#- the by column's first ten values, in order, then … when there are more; quoted when they are
    text: when the column is, or, its type unknown, when the baseline is (text that spells a
    number names a number of a numeric column: the command line's --baseline 7) -#}
{%- set family = rank_metrics._type_family(by_type) if by_type is not none else none %}
{%- set text_values = family == 'string' or by_type == 'USER-DEFINED' if family is not none else baseline is string %}
{#- an enum's values met as text: a baseline that is none of its labels is then a row of no match,
    not PostgreSQL's "invalid input value for enum" -#}
{%- set compared = 'cast(rm_by as ' ~ text ~ ') = cast(' ~ baseline_literal ~ ' as ' ~ text ~ ')' if by_type == 'USER-DEFINED'
                   else 'rm_by = ' ~ baseline_literal %}
{%- set quote = rank_metrics.string_literal("'") if text_values else "''" %}
    case when rm_values = 0 then {{ rank_metrics.string_literal('predictions has no rows, so none with ' ~ by_name ~ ' = ' ~ rank_metrics._shown(baseline) ~ ' to compare with') }}
    else {{ rank_metrics._problem_literal('predictions has no rows with ' ~ by_name ~ ' = ' ~ rank_metrics._shown(baseline) ~ '; ' ~ rank_metrics._mention('baseline', baseline) ~ ' must be one of the values of by (' ~ by_name ~ '): ', fragments) }}
        {%- for place in range(1, 11) %}
        || coalesce({{ rank_metrics.string_literal(', ') ~ ' || ' if place > 1 }}rm_value_{{ place }}, '')
        {%- endfor %}
        || case when rm_values > 10 then {{ rank_metrics.string_literal(', …') }} else '' end end as problem
from (
    select sum(case when {{ compared }} then 1 else 0 end) as rm_rows,
        {%- for place in range(1, 11) %}
        max(case when rm_place = {{ place }} then {{ quote }} || cast(rm_by as {{ text }}) || {{ quote }} end) as rm_value_{{ place }},
        {%- endfor %}
        count(*) as rm_values
    from (
        select rm_by, row_number() over ({{ rank_metrics._one_partition('rm_by_rows') }} order by rm_by) as rm_place
        from (
            select {{ by_column }} as rm_by, count(*) as rm_by_rows
            from {{ predictions }} as rm_p
            where {{ by_column }} is not null
            group by {{ by_column }}
        ) as rm_distinct
    ) as rm_ordered
) as rm_baseline
{#- over no rows at all (predictions empty) sum is NULL #}
where coalesce(rm_rows, 0) = 0
{%- endmacro %}
