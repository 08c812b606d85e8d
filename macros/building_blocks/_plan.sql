{#- Resolving and checking the arguments of every metric macro, in plain Jinja so that the
    Python package renders it too. The result is written into the dict `plan`, because a plain
    Jinja macro can only return text. Column lists are optional: dbt passes them when the input
    is a relation, Python always does; without them only the arguments themselves are checked. -#}

{% macro _plan(plan, predictions, truth, k, user='user_id', item='item_id', rank=none, score=none,
               relevance=none, by=none, truth_by=none, normalization=none, users=none,
               duplicates=none, tie_break=none, convention=none,
               predictions_columns=none, truth_columns=none, metrics=none, gain=none, gain_from=none,
               precision_denominator=none, recall_denominator=none, truth_scope=none,
               relevance_threshold=none, truth_user=none, truth_item=none, predictions_shape=none,
               truth_shape=none, item_separator=none, confidence=none, persistence=none, max_grade=none, mean=none,
               auc_weight=none) %}
    {#- a misspelt keyword lands in kwargs (a macro that reads kwargs takes any keyword): named
        here rather than by Jinja's "takes no keyword argument" about an internal macro -#}
    {%- for name in kwargs | list | sort -%}
        {%- if name in ['seed', 'resamples'] -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention(name, kwargs[name], 'word') ~ " is an argument of the permutation and bootstrap tests, which run in Python "
            ~ "(rank_metrics.compare, rank-metrics compare); SQL has only the t test") }}
        {%- endif -%}
        {%- set known = (rank_metrics._option_names() | replace(',', ' ')).split() + ['metrics', 'confidence', 'baseline', 'test', 'correction', 'family', 'alpha', 'validate'] -%}
        {%- set nearest = rank_metrics._nearest_name(name, known) -%}
        {{ exceptions.raise_compiler_error("rank_metrics: unknown argument " ~ rank_metrics._mention(name, none, 'word', rank_metrics._shown(name))
            ~ (" (did you mean " ~ rank_metrics._shown(nearest) ~ "?)" if nearest else "")
            ~ "; the arguments after (predictions, truth, k) are " ~ rank_metrics._option_names() ~ ", metrics and confidence "
            ~ "(evaluate), baseline, test, correction, family and alpha (compare), validate (dbt)") }}
    {%- endfor -%}
    {%- do rank_metrics._option_values(plan, k, normalization=normalization, users=users, duplicates=duplicates,
                                       tie_break=tie_break, convention=convention, gain=gain, gain_from=gain_from,
                                       precision_denominator=precision_denominator,
                                       recall_denominator=recall_denominator, truth_scope=truth_scope,
                                       metrics=metrics, confidence=confidence, mean=mean, auc_weight=auc_weight) -%}

    {#- relevance=false: truth has no grade column (below) -#}
    {%- set no_grades = relevance is sameas false -%}
    {%- set relevance = none if no_grades else relevance -%}
    {#- relevance_threshold: a finite number (an int, a float or a Decimal: a Fraction would be
        an integer division, 1/3, on PostgreSQL); relevant = grade >= it, instead of grade > 0 -#}
    {%- if relevance_threshold is not none and (relevance_threshold is not number or relevance_threshold is boolean
            or not rank_metrics._spells_a_number(relevance_threshold) | trim) -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('relevance_threshold', relevance_threshold) ~ " must be a finite number (such as 2 or 0.5); got " ~ rank_metrics._shown_as_given(relevance_threshold)) }}
    {%- endif -%}

    {#- persistence: RBP's p, the probability of reading on to the next position, strictly between 0 and 1 -#}
    {%- if persistence is not none and (persistence is not number or persistence is boolean
            or not rank_metrics._spells_a_number(persistence) | trim or not (persistence > 0 and persistence < 1)) -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('persistence', persistence) ~ " must be a number between 0 and 1, both excluded (RBP's probability of reading on to the next position; 0.8 unless given); got " ~ rank_metrics._shown_as_given(persistence)) }}
    {%- endif -%}
    {%- do plan.update({'persistence': 0.8 if persistence is none else persistence | float}) -%}
    {#- max_grade: ERR's g_max, a positive number (none: the largest grade in truth) -#}
    {%- if max_grade is not none and (max_grade is not number or max_grade is boolean
            or not rank_metrics._spells_a_number(max_grade) | trim or not max_grade > 0) -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('max_grade', max_grade) ~ " must be a positive number (ERR's and graded RBP's largest grade, as gdeval's 4; the largest grade in truth unless given); got " ~ rank_metrics._shown_as_given(max_grade)) }}
    {%- endif -%}
    {%- do plan.update({'max_grade': max_grade}) -%}

    {#- column names: strings, checked against the tables' columns where those are known -#}
    {%- set by_list = [] if by is none else ([by] if by is string else by | list) -%}
    {#- truth's user and item columns: the same names as in predictions unless named -#}
    {%- set truth_user = user if truth_user is none else truth_user -%}
    {%- set truth_item = item if truth_item is none else truth_item -%}
    {%- for name, value in [('user', user), ('item', item), ('truth_user', truth_user), ('truth_item', truth_item)] -%}
        {%- if value is not string or value == '' -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention(name, value) ~ " must be a column name; got " ~ rank_metrics._shown(value)) }}
        {%- endif -%}
    {%- endfor -%}
    {%- if user == item -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('user', user, 'word') ~ " and " ~ rank_metrics._mention('item', item, 'word') ~ " both name column " ~ user ~ "; they must be two different columns") }}
    {%- endif -%}
    {%- set predictions_names = none if predictions_columns is none else predictions_columns | map(attribute='name') | list -%}
    {%- set truth_names = none if truth_columns is none else truth_columns | map(attribute='name') | list -%}

    {#- list-shaped tables: one row per user, the items in order in a list column (or in a text
        column, separated by item_separator); unnested into rows below. Long by default, list when
        the item column is a list or array. -#}
    {%- set shapes = {} -%}
    {%- for table, columns, shape, item_name in [('predictions', predictions_columns, predictions_shape, item),
                                                 ('truth', truth_columns, truth_shape, truth_item)] -%}
        {%- set found = [] if columns is none else columns | selectattr('name', 'equalto', item_name) | list -%}
        {%- set item_type = (found | first).data_type | string if found else none -%}
        {#- a column of no type (only NULLs, an empty frame's) could be a list: its type is not known -#}
        {%- set item_type = none if item_type is not none and rank_metrics._type_family(item_type) == 'no type' else item_type -%}
        {%- set typed_list = item_type is not none and rank_metrics._element_type(item_type) != item_type -%}
        {%- set resolved = shape if shape is not none else ('list' if typed_list else 'long') -%}
        {%- if resolved not in ['long', 'list'] -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention(table ~ '_shape', resolved) ~ " must be one of 'long', 'list'; got " ~ rank_metrics._shown(resolved)) }}
        {%- endif -%}
        {#- text to split: a list table whose item column is known not to be a list, or, when its
            type is not known (text input), one for which a separator is given -#}
        {%- set separated = resolved == 'list' and (not typed_list if item_type is not none else item_separator is not none) -%}
        {%- if separated and item_separator is none -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention(table ~ '_shape', 'list', 'value') ~ " but item column " ~ item_name ~ " of " ~ table ~ " is "
                ~ (item_type or 'not known to be a list') ~ ", not a list; for items in text, name their separator with " ~ rank_metrics._mention('item_separator', none, 'equals') ~ " (' ' in a Kaggle submission)"
                ~ ("; for a row per item (long form), pass no " ~ rank_metrics._mention('predictions_shape') ~ " but its " ~ rank_metrics._mention('rank', none, 'equals') ~ " or " ~ rank_metrics._mention('score', none, 'equals') if table == 'predictions' else "")) }}
        {%- endif -%}
        {%- if separated and item_type is not none and rank_metrics._type_family(item_type) != 'string' -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('item_separator', item_separator) ~ " splits text, but item column " ~ item_name ~ " of " ~ table ~ " is " ~ item_type) }}
        {%- endif -%}
        {%- do shapes.update({table: {'list': resolved == 'list', 'given': shape is not none, 'separator': item_separator if separated else none,
                                      'text_items': item_type is not none and rank_metrics._type_family(item_type) == 'string',
                                      'element_type': none if item_type is none else ('varchar' if separated else rank_metrics._element_type(item_type) | replace('array', '') or none)}}) -%}
    {%- endfor -%}
    {%- if item_separator is not none and (item_separator is not string or item_separator == '') -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('item_separator', item_separator) ~ " must be a non-empty text; got " ~ rank_metrics._shown(item_separator)) }}
    {%- endif -%}
    {#- a separator that splits nothing would leave each whole text as one item: a silent miss -#}
    {%- if item_separator is not none and shapes.predictions.separator is none and shapes.truth.separator is none -%}
        {%- set typed = [] -%}
        {%- for table in ['predictions', 'truth'] if shapes[table].list -%}{%- do typed.append(table) -%}{%- endfor -%}
        {%- if typed | length == 2 -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('item_separator', item_separator) ~ " splits the items of a list-shaped table out of text, but the item columns of "
            ~ "predictions and truth hold lists already: pass no " ~ rank_metrics._mention('item_separator', item_separator)) }}
        {%- elif typed -%}
        {%- set other = 'truth' if typed[0] == 'predictions' else 'predictions' -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('item_separator', item_separator) ~ " splits the items of a list-shaped table out of text, but the item column of "
            ~ typed[0] ~ " holds lists already: for " ~ other ~ " with each user's items in one text, pass " ~ rank_metrics._mention(other ~ '_shape', 'list', 'value')
            ~ " with it; else pass no " ~ rank_metrics._mention('item_separator', item_separator)) }}
        {%- endif -%}
        {#- (where the columns are not looked up, as when dbt parses a project, no table is known to be one) -#}
        {{ exceptions.raise_compiler_error(rank_metrics._no_table_said_to_be_a_list(item_separator)) }}
    {%- endif -%}
    {%- if shapes.predictions.list -%}
        {#- a rank or score column beside lists whose shape was not said would be left unread, though
            it may hold the order meant (a score list per user beside its items) -#}
        {%- for name in ['rank', 'score'] if not shapes.predictions.given and rank is none and score is none and name in (predictions_names or []) -%}
            {{ exceptions.raise_compiler_error("rank_metrics: predictions' item column " ~ item ~ " holds lists, which are read in their own order, "
                ~ "and its " ~ name ~ " column would be left unread: for that order, give a row per item (long form; explode both columns); "
                ~ "else drop the column or pass " ~ rank_metrics._mention('predictions_shape', 'list', 'value')) }}
        {%- endfor -%}
        {%- for argument, value in [('rank', rank), ('score', score)] if value is not none -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention(argument, value) ~ ": list-shaped predictions are ordered by their lists; pass no " ~ rank_metrics._mention('rank', rank)
                ~ " or score (got " ~ rank_metrics._mention(argument, value, 'value', argument ~ "=" ~ rank_metrics._shown(value)) ~ ")") }}
        {%- endfor -%}
        {%- set rank = 'rm_list_position' -%}
    {%- endif -%}
    {%- if shapes.truth.list and relevance is not none -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('relevance', relevance) ~ ": list-shaped truth has no grades; pass no " ~ rank_metrics._mention('relevance', relevance)
            ~ " (got " ~ rank_metrics._mention('relevance', relevance, 'value', "relevance=" ~ rank_metrics._shown(relevance)) ~ ")") }}
    {%- endif -%}

    {#- rank or score: exactly one orders each user's list -#}
    {%- if rank is not none and score is not none -%}
        {{ exceptions.raise_compiler_error("rank_metrics: pass rank or score, not both (got " ~ rank_metrics._mention('rank', rank, 'value', "rank=" ~ rank_metrics._shown(rank))
            ~ ", " ~ rank_metrics._mention('score', score, 'value', "score=" ~ rank_metrics._shown(score)) ~ ")") }}
    {%- elif rank is none and score is none -%}
        {%- if predictions_names is none -%}
            {%- set rank = 'rank' -%}
        {%- elif 'rank' in predictions_names and 'score' in predictions_names -%}
            {{ exceptions.raise_compiler_error(rank_metrics._both_rank_and_score()) }}
        {%- elif 'rank' in predictions_names -%}
            {%- set rank = 'rank' -%}
        {%- elif 'score' in predictions_names -%}
            {%- set score = 'score' -%}
        {%- else -%}
            {%- for wanted in ['rank', 'score'] -%}
                {%- set spelt = rank_metrics._in_another_case(predictions_names, wanted) -%}
                {%- if spelt -%}
                {{ exceptions.raise_compiler_error("rank_metrics: predictions has neither a rank nor a score column, but it has "
                    ~ rank_metrics._spelt_otherwise(wanted, spelt) ~ " (names are matched as spelt): pass " ~ rank_metrics._mention(wanted, spelt, 'value', wanted ~ "='" ~ spelt ~ "'")) }}
                {%- endif -%}
            {%- endfor -%}
            {#- a missing item column is the first thing to say (the check of every column below) -#}
            {%- if item in predictions_names -%}
            {%- set in_truth = (truth_names or []) | select('in', ['rank', 'score']) | list -%}
            {#- a text item column may hold each user's whole list, as a Kaggle submission does -#}
            {%- set as_list = "; or, if each row holds a user's whole list in column " ~ item ~ ", pass " ~ rank_metrics._mention('predictions_shape', 'list', 'value')
                ~ " (with " ~ rank_metrics._mention('item_separator', none, 'equals') ~ " for items in text: ' ' in a Kaggle submission)" if shapes.predictions.text_items else "" -%}
            {{ exceptions.raise_compiler_error("rank_metrics: predictions has neither a rank nor a score column; name one with " ~ rank_metrics._mention('rank', none, 'equals')
                ~ " or " ~ rank_metrics._mention('score', none, 'equals') ~ " (its columns are: " ~ predictions_names | join(', ') ~ ")"
                ~ ("; truth has " ~ in_truth[0] ~ ": are predictions and truth the other way round?" if in_truth
                   else "; truth is list-shaped: are predictions and truth the other way round?" if shapes.truth.list else as_list)) }}
            {%- endif -%}
        {%- endif -%}
    {%- endif -%}

    {#- relevance: a grade column of truth; rows graded <= 0 are not relevant. A column named
        relevance is read unless relevance=false (Python; dbt's relevance=none given) says truth
        has no grades: a dbt model read it from a ref() and not from a CTE of the same rows -#}
    {%- if relevance is none and not no_grades and truth_names is not none and 'relevance' in truth_names and not shapes.truth.list -%}
        {%- set relevance = 'relevance' -%}
    {%- endif -%}
    {#- a threshold with no grades to apply it to: every truth row has grade 1, so it changes
        nothing (at most 1) or leaves no relevant item (above 1); either way a grade column was
        meant (trec_eval's -l on qrels whose grade column was not named) -#}
    {%- if relevance_threshold is not none and relevance is none and truth_names is not none -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('relevance_threshold', relevance_threshold, 'word') ~ " " ~ rank_metrics._shown(relevance_threshold) ~ " applies to grades, but "
            ~ ("list-shaped truth has none: give truth in long form (a row per item, with its grade) and name its grade column with " ~ rank_metrics._mention('relevance', none, 'equals')
               if shapes.truth.list else "no grade column of truth is read: name it with " ~ rank_metrics._mention('relevance', none, 'equals') ~ " (truth's columns are: " ~ truth_names | join(', ') ~ ")")
            ~ "; without grades every truth row is relevant") }}
    {%- endif -%}

    {#- by columns that truth also has are matched on; others share one truth -#}
    {%- if truth_by is none -%}
        {%- set truth_by = [] if truth_names is none else by_list | select('in', truth_names) | list -%}
        {#- a by column that truth spells in another case would silently share one truth across groups -#}
        {%- for name in by_list if truth_names is not none and name not in truth_by -%}
            {%- set spelt = rank_metrics._in_another_case(truth_names, name) -%}
            {%- if spelt -%}
                {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('by', name, 'word') ~ " column " ~ name ~ " is in truth as " ~ rank_metrics._spelt_otherwise(name, spelt) ~ "; names are matched as spelt, "
                    ~ "so the groups would not be matched with truth's but share all of it: rename one of the two columns") }}
            {%- endif -%}
        {%- endfor -%}
    {%- else -%}
        {%- set truth_by = [truth_by] if truth_by is string else truth_by | list -%}
    {%- endif -%}
    {%- for name in truth_by if name not in by_list -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('truth_by', name, 'word') ~ " column " ~ name ~ " is not one of the by columns (" ~ by_list | join(', ') ~ ")") }}
    {%- endfor -%}

    {#- the columns the metric macros output: a user, item or by column of the same name would
        make two columns of one name, or one whose values are not what its name says -#}
    {%- set registry = {} -%}
    {%- do rank_metrics._metric_registry(registry) -%}
    {%- set metric_columns = {} -%}
    {%- set group_columns = {} -%}
    {%- for metric, entry in registry.items() -%}
        {%- do metric_columns.update({metric: entry.user_column}) -%}
        {%- do group_columns.update({metric: entry.group_column}) -%}
    {%- endfor -%}
    {#- in the order the outputs bring them: the first metric's macro and per-user macro, evaluate,
        evaluate_users, the other metrics' macros, compare -#}
    {%- set first = registry | first -%}
    {%- set output_columns = ['k', group_columns[first], 'n_users', metric_columns[first], 'n_relevant', 'n_hits', 'metric', 'value']
                             + (metric_columns.values() | list)[1:] + (group_columns.values() | list)[1:]
                             + ['std_error', 'ci_low', 'ci_high', 'baseline_value', 'difference', 'relative_difference',
                                't', 'df', 'p_value', 'p_value_adjusted', 'significant', 'n_only_model', 'n_only_baseline'] -%}
    {#- (a cutoff-free metric's column per user and per group are one) -#}
    {%- set output_columns = output_columns | unique | list -%}
    {#- in any case: the engines fold unquoted names, so N_Users and n_users are one column to them -#}
    {%- for argument, name in [('user', user), ('item', item)] if name is string and (name | lower) in output_columns -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention(argument, name, 'word') ~ " column " ~ name ~ " clashes with an output column (" ~ output_columns | join(', ') ~ "); rename it in a view or select") }}
    {%- endfor -%}
    {%- set reserved = [user, item, rank, score] + output_columns -%}
    {%- set reserved_lower = reserved | reject('none') | map('lower') | list -%}
    {%- for name in by_list -%}
        {%- if name is not string or name == '' -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('by', name) ~ " must be a column name or a list of them; got " ~ rank_metrics._shown(name)) }}
        {%- elif by_list[:loop.index0] | select('equalto', name) | list -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('by', name, 'word') ~ " names column " ~ name ~ " twice") }}
        {%- elif (name | lower) in reserved_lower or (name | lower).startswith('rm_') -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention('by', name, 'word') ~ " column " ~ name ~ " clashes with the user, item or order column or an output column (" ~ reserved | reject('none') | join(', ') ~ ", rm_*)") }}
        {%- endif -%}
    {%- endfor -%}

    {%- set needed_in_predictions = [('user', user), ('item', item), ('rank', none if shapes.predictions.list else rank), ('score', score)] -%}
    {%- for name in by_list -%}{%- do needed_in_predictions.append(('by', name)) -%}{%- endfor -%}
    {%- set needed_in_truth = [(rank_metrics._truth_argument('user', truth_user, user), truth_user),
                               (rank_metrics._truth_argument('item', truth_item, item), truth_item), ('relevance', relevance)] -%}
    {%- for name in truth_by -%}{%- do needed_in_truth.append(('truth_by', name)) -%}{%- endfor -%}
    {%- for table, names, needed in [('predictions', predictions_names, needed_in_predictions), ('truth', truth_names, needed_in_truth)] if names is not none -%}
        {%- for argument, name in needed if name is not none and name not in names -%}
            {#- truth's user or item column under another name is named by truth_user / truth_item -#}
            {%- set other_name = "; name truth's own column with " ~ rank_metrics._mention('truth_' ~ argument, none, 'equals') if table == 'truth' and argument in ['user', 'item'] else "" -%}
            {%- set spelt = rank_metrics._in_another_case(names, name) -%}
            {%- if spelt -%}
                {#- truth's own spelling is named by truth_user / truth_item; a matched by column
                    must be spelt alike in both tables -#}
                {%- set fixed = 'truth_' ~ argument if table == 'truth' and argument in ['user', 'item'] else argument -%}
                {%- set fix = "rename one of the two columns" if argument == 'truth_by'
                    else "pass " ~ rank_metrics._mention(fixed, spelt, 'value', fixed ~ "='" ~ spelt ~ "'") -%}
                {%- set other_name = "; it has " ~ rank_metrics._spelt_otherwise(name, spelt) ~ " (names are matched as spelt): " ~ fix -%}
            {%- elif names and rank_metrics._read_without_header(names) | trim == 'True' -%}
                {#- DuckDB's CSV reader names the columns of a file without a header line column0,
                    column1, … (a new user's trial) -#}
                {%- set other_name = "; the file has no header line, so its columns were numbered: begin it with one naming them (" ~ name ~ ", …)" -%}
            {%- elif name | lower in ['none', 'null'] -%}
                {#- a gate's YAML `relevance: none` is the text 'none' (a new user's trial) -#}
                {%- set other_name = rank_metrics._mention(argument, name, 'yaml_null') ~ other_name -%}
            {%- elif rank_metrics._nearest_name(name, names) -%}
                {%- set other_name = "; did you mean " ~ rank_metrics._nearest_name(name, names) ~ "?" ~ other_name -%}
            {%- endif -%}
            {{ exceptions.raise_compiler_error("rank_metrics: column " ~ name ~ " " ~ rank_metrics._mention(argument, name, 'argument') ~ " is not in " ~ table ~ "; its columns are: " ~ names | join(', ') ~ other_name) }}
        {%- endfor -%}
    {%- endfor -%}

    {#- the order and grade columns are compared with numbers: only numeric types will do -#}
    {%- for table, columns, checked in [('predictions', predictions_columns, [('rank', none if shapes.predictions.list else rank), ('score', score)]),
                                        ('truth', truth_columns, [('relevance', relevance)])] if columns is not none -%}
        {%- for argument, name in checked if name is not none -%}
            {%- set column = columns | selectattr('name', 'equalto', name) | first -%}
            {%- if rank_metrics._type_family(column.data_type) not in ('number', 'floating point', 'no type') -%}
                {{ exceptions.raise_compiler_error("rank_metrics: column " ~ name ~ " " ~ rank_metrics._mention(argument, name, 'argument') ~ " of " ~ table ~ " is " ~ column.data_type ~ "; " ~ rank_metrics._mention(argument, name) ~ " must be a numeric column (integer, decimal or floating point)") }}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}

    {#- Spark neither compares nor groups its maps (map<...>, also inside a struct or an array):
        an id holding one met Spark's own error about the SQL (a user's trial); DuckDB's MAP(...)
        compares by rules of its own, which check=True cannot follow (a map is no id) -#}
    {%- set id_columns = [('predictions', predictions_columns, 'user', user), ('predictions', predictions_columns, 'item', item),
                          ('truth', truth_columns, rank_metrics._truth_argument('user', truth_user, user), truth_user),
                          ('truth', truth_columns, rank_metrics._truth_argument('item', truth_item, item), truth_item)] -%}
    {%- for name in by_list -%}{%- do id_columns.append(('predictions', predictions_columns, 'by', name)) -%}{%- endfor -%}
    {%- for table, columns, argument, name in id_columns if columns is not none -%}
        {%- set data_type = shapes[table].element_type if argument in ('item', 'truth_item') and shapes[table].list
            else (columns | selectattr('name', 'equalto', name) | first).data_type | string -%}
        {%- if 'map<' in (data_type or '') | lower or 'map(' in (data_type or '') | lower -%}
            {{ exceptions.raise_compiler_error("rank_metrics: column " ~ name ~ " " ~ rank_metrics._mention(argument, name, 'argument') ~ " of " ~ table ~ " is " ~ data_type
                ~ ", and an id cannot hold a map (Spark compares no maps, DuckDB by rules of its own): turn it into text, or a struct of its fields") }}
        {%- endif -%}
    {%- endfor -%}

    {#- user, item and the matched by columns must be comparable across the two tables -#}
    {%- if predictions_columns is not none and truth_columns is not none -%}
        {#- (argument, column in predictions, column in truth) -#}
        {%- set matched = [('user', user, truth_user), ('item', item, truth_item)] -%}
        {%- for name in truth_by -%}{%- do matched.append(('by', name, name)) -%}{%- endfor -%}
        {%- for argument, name, truth_name in matched -%}
            {%- set left = (predictions_columns | selectattr('name', 'equalto', name) | first).data_type | string -%}
            {%- set right = (truth_columns | selectattr('name', 'equalto', truth_name) | first).data_type | string -%}
            {#- a list's items are compared by their own type (none where the engine does not say it) -#}
            {%- set left = shapes.predictions.element_type if argument == 'item' and shapes.predictions.list else left -%}
            {%- set right = shapes.truth.element_type if argument == 'item' and shapes.truth.list else right -%}
            {%- for table, data_type in [('predictions', left), ('truth', right)] if rank_metrics._compares_without_case(data_type) -%}
                {{ exceptions.raise_compiler_error(rank_metrics._id_column_is(table, argument, name, truth_name, data_type)
                    ~ ", whose values the engine finds equal when they differ in case or accents ('A' = 'a'), where ids are compared exactly: "
                    ~ "cast it to plain text (" ~ ('text' if 'citext' in data_type | lower else 'string collate UTF8_BINARY') ~ ")") }}
            {%- endfor -%}
            {#- an interval is no id: the engines equal 1 month to 30 days and keep microseconds,
                where pandas' timedeltas of 1 and 2 ns are two (a new user's trial) -#}
            {%- for table, data_type in [('predictions', left), ('truth', right)] if (data_type | string | lower | trim).startswith('interval') -%}
                {{ exceptions.raise_compiler_error(rank_metrics._id_column_is(table, argument, name, truth_name, data_type)
                    ~ ", which cannot be an id: the engines find 1 month equal to 30 days and keep only microseconds "
                    ~ "(timedeltas of 1 and 2 ns would be one id): make it a number, such as a count of nanoseconds") }}
            {%- endfor -%}
            {%- set why_they_do_not_meet = rank_metrics._why_ids_do_not_meet(left, right) -%}
            {%- if why_they_do_not_meet -%}
                {{ exceptions.raise_compiler_error("rank_metrics: column " ~ name ~ " " ~ rank_metrics._mention(argument, name, 'argument') ~ " is " ~ left ~ " in predictions but "
                    ~ ("" if truth_name == name else "its truth column " ~ truth_name ~ " is ") ~ right ~ " in truth; cast one so they match"
                    ~ ("" if why_they_do_not_meet == 'types' else " (" ~ why_they_do_not_meet ~ ")")) }}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}

    {#- the by columns' types in predictions, where known (a baseline is checked against them) -#}
    {%- set by_types = {} -%}
    {%- for column in (predictions_columns or []) if column.name in by_list -%}
        {%- do by_types.update({column.name: column.data_type | string}) -%}
    {%- endfor -%}
    {%- set quoted_by = [] -%}
    {%- for name in by_list -%}{%- do quoted_by.append(rank_metrics.quote_identifier(name)) -%}{%- endfor -%}
    {%- set quoted_truth_by = [] -%}
    {%- for name in truth_by -%}{%- do quoted_truth_by.append(rank_metrics.quote_identifier(name)) -%}{%- endfor -%}
    {#- a list-shaped table is read through its rows: the SQL below never knows the difference -#}
    {%- set truth_keep = [] -%}
    {%- for name in truth_by + [truth_user] -%}{%- do truth_keep.append(rank_metrics.quote_identifier(name)) -%}{%- endfor -%}
    {%- set ideal_from_m = (relevance is none or plan.gain == 'binary') and plan.truth_scope == 'all'
                           and relevance_threshold is none and plan.ks | max <= 1000 -%}
    {#- sums: what the requested metrics need of the one pass (the registry's sums) -#}
    {%- set sums = [] -%}
    {%- for metric in plan.metrics -%}
        {%- for sum in registry[metric].sums if sum not in sums -%}{%- do sums.append(sum) -%}{%- endfor -%}
    {%- endfor -%}
    {#- partial: the requested metrics some users have no value of (the registry's partial) -#}
    {%- set partial = [] -%}
    {%- for metric in plan.metrics if registry[metric].get('partial') -%}{%- do partial.append(metric) -%}{%- endfor -%}
    {#- cutoff_free: the requested metrics that take no k (R-precision, bpref), each one value per user,
        reported once with k NULL; slots: every value of a group row, in the order results list
        them: each k's metrics, then the cutoff-free ones ({k, metric, value: its column suffix});
        cutoff_free_sums: theirs, each a CTE of its own (_cutoff_free_sum); judged_rows: the lists
        meet every judged truth row, not only those that are relevant or add gain (the registry's
        judged: bpref, RBP's residual); sums_of_their_own: sums at k from a CTE of their own -#}
    {%- set cutoff_free = [] -%}
    {%- for metric in plan.metrics if registry[metric].get('cutoff_free') -%}{%- do cutoff_free.append(metric) -%}{%- endfor -%}
    {%- set sums_of_their_own = sums | select('in', (rank_metrics._sums_of_their_own() | trim).split()) | list -%}
    {%- set judged = [] -%}
    {%- for metric in plan.metrics if registry[metric].get('judged') -%}{%- do judged.append(metric) -%}{%- endfor -%}
    {%- set cutoff_free_sums = [] -%}
    {%- for metric in cutoff_free -%}{%- for sum in registry[metric].sums if sum not in cutoff_free_sums -%}{%- do cutoff_free_sums.append(sum) -%}{%- endfor -%}{%- endfor -%}
    {%- set slots = [] -%}
    {%- for k in plan.ks %}{% set at = loop.index %}{% for metric in plan.metrics if metric not in cutoff_free -%}
        {%- do slots.append({'k': k, 'metric': metric, 'value': metric ~ '_' ~ at}) -%}
    {%- endfor %}{% endfor -%}
    {%- for metric in cutoff_free -%}{%- do slots.append({'k': none, 'metric': metric, 'value': metric}) -%}{%- endfor -%}
    {%- set bits_counted = plan.ks | max <= 61 and (rank_metrics.engine_profile('bit_count') | trim) != '' -%}
    {#- hits_as_bits: AP's running count of hits comes from a 64-bit word of the hit positions
        (every hit is within the largest k), where the engine counts bits -#}
    {#- ideal_from_m: every item that adds gain adds 1 when truth has no grades or gains are binary,
        and then those are the m(u) relevant items: IDCG@k needs only m(u) (up to a k of 1000) -#}
    {#- item_sorted_as_text: an enum (a pandas categorical in DuckDB; USER-DEFINED to
        PostgreSQL's information schema) sorts by its labels' declared order, not its values';
        item_is_text: text, which ties sort by its bytes (text_in_byte_order) -#}
    {#- rank_, score_ and relevance_is_integer: the column holds whole numbers (so no NaN or ±inf,
        which the data checks then do not look for) -#}
    {#- patterns_suffice: every requested metric of a user at a k is a function of the user's hit
        pattern (the word of relevant hit positions, m(u), and n(u) where precision divides by
        it), so group results may count users per pattern (_user_sums), unless ties are scored by
        expectation (tie_break='average'); hit_patterns says they do,
        and only the macros that output groups turn it on. A cutoff-free metric's values are per
        user, beside the patterns (_user_values); alone, it has no use for them. -#}
    {#- predictions_table: the predictions as given, before any unnesting (a list-shaped table's
        groups are the groups of its rows, including those whose lists are all empty) -#}
    {%- do plan.update({
        'predictions_table': predictions,
        'predictions': rank_metrics.unnest_list(predictions, quoted_by + [rank_metrics.quote_identifier(user)],
                           rank_metrics.quote_identifier(item), shapes.predictions.separator,
                           rank_metrics.quote_identifier(rank)) if shapes.predictions.list else predictions,
        'truth': rank_metrics.unnest_list(truth, truth_keep, rank_metrics.quote_identifier(truth_item),
                     shapes.truth.separator, none) if shapes.truth.list else truth,
        'user': rank_metrics.quote_identifier(user), 'item': rank_metrics.quote_identifier(item),
        'truth_user': rank_metrics.quote_identifier(truth_user), 'truth_item': rank_metrics.quote_identifier(truth_item),
        'order_by': rank_metrics.quote_identifier(rank if rank is not none else score),
        'order_direction': 'asc' if rank is not none else 'desc',
        'rank_is_integer': shapes.predictions.list or rank is not none and rank_metrics._is_integer_column(predictions_columns, rank) | trim == 'True',
        'rank_is_whole': shapes.predictions.list or rank is not none and (rank_metrics._is_integer_column(predictions_columns, rank) | trim == 'True'
                                                                           or rank_metrics._is_whole_decimal_column(predictions_columns, rank) | trim == 'True'),
        'rank_compared_as_double': rank is not none and not shapes.predictions.list
                                   and rank_metrics._is_fractional_decimal_column(predictions_columns, rank) | trim == 'True',
        'score_is_integer': score is not none and rank_metrics._is_integer_column(predictions_columns, score) | trim == 'True',
        'relevance_is_integer': relevance is not none and rank_metrics._is_integer_column(truth_columns, relevance) | trim == 'True',
        'item_direction': 'desc' if plan.tie_break == 'item_desc' else 'asc',
        'item_sorted_as_text': ((shapes.predictions.element_type or '') | lower).startswith('enum')
                               or (shapes.predictions.element_type or '') | lower == 'user-defined',
        'item_is_text': shapes.predictions.element_type is not none
                        and rank_metrics._type_family(shapes.predictions.element_type) | trim == 'string',
        'relevance': none if relevance is none else rank_metrics.quote_identifier(relevance),
        'relevance_threshold': relevance_threshold,
        'metric_columns': metric_columns, 'group_columns': group_columns,
        'needs_list_length': 'precision' in plan.metrics and plan.precision_denominator == 'list_length' or 'list_length' in sums,
        'ideal_from_m': ideal_from_m,
        'hits_as_bits': 'precision_sum' in sums and bits_counted,
        'patterns_suffice': bits_counted and ('dcg' not in sums or ideal_from_m) and rank_metrics._err_fits_the_word(sums, relevance) | trim == 'true'
                            and rank_metrics._rbp_fits_the_word(plan, sums, relevance, relevance_threshold) | trim == 'true'
                            and cutoff_free | length < plan.metrics | length and plan.tie_break != 'average',
        'sums': sums,
        'partial': partial,
        'cutoff_free': cutoff_free, 'slots': slots,
        'uncut': plan.truth_scope == 'listed' or cutoff_free | length > 0,
        'cutoff_free_sums': cutoff_free_sums,
        'judged_rows': relevance is not none and plan.metrics | select('in', judged) | list | length > 0,
        'sums_of_their_own': sums_of_their_own,
        'term_sums': rank_metrics._hit_term_sums(sums).split(),
        'hit_patterns': false,
        'by': quoted_by, 'truth_by': quoted_truth_by,
        'by_types': by_types,
        'shapes': shapes,
        'names': {'user': user, 'item': item, 'truth_user': truth_user, 'truth_item': truth_item, 'rank': rank, 'score': score, 'relevance': relevance,
                  'by': by_list, 'truth_by': truth_by},
    }) -%}
{% endmacro %}

{#- The error of an item_separator given with no table said to be list-shaped (the accuracy
    metrics' and beyond accuracy's). -#}
{% macro _no_table_said_to_be_a_list(item_separator) -%}
    rank_metrics: {{ rank_metrics._mention('item_separator', item_separator) }} splits the items of a list-shaped table out of text, but no table is said to be one: pass {{ rank_metrics._mention('predictions_shape', 'list', 'value') }} for predictions with each user's items in one text, {{ rank_metrics._mention('truth_shape', 'list', 'value') }} for truth in that form, or both
{%- endmacro %}

{#- The error of predictions with both a rank and a score column, neither named: which orders
    the lists is the user's to say (evaluate's and beyond accuracy's plans both refuse it). -#}
{% macro _both_rank_and_score() -%}
rank_metrics: predictions has both a rank and a score column; name the one to use with {{ rank_metrics._mention('rank', none, 'equals') }} or {{ rank_metrics._mention('score', none, 'equals') }}
{%- endmacro %}
