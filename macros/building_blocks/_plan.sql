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
               truth_shape=none, item_separator=none, confidence=none) %}
    {#- a misspelt keyword lands in kwargs (a macro that reads kwargs takes any keyword): named
        here rather than by Jinja's "takes no keyword argument" about an internal macro -#}
    {%- for name in kwargs | list | sort -%}
        {%- if name in ['seed', 'resamples'] -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ name ~ " is an argument of the permutation and bootstrap tests, which run in Python "
            ~ "(rank_metrics.compare, rank-metrics compare); SQL has only the t test") }}
        {%- endif -%}
        {%- set known = (rank_metrics._option_names() | replace(',', ' ')).split() + ['metrics', 'confidence', 'baseline', 'test', 'correction', 'alpha', 'validate'] -%}
        {%- set nearest = rank_metrics._nearest_name(name, known) -%}
        {{ exceptions.raise_compiler_error("rank_metrics: unknown argument " ~ rank_metrics._shown(name)
            ~ (" (did you mean " ~ rank_metrics._shown(nearest) ~ "?)" if nearest else "")
            ~ "; the arguments after (predictions, truth, k) are " ~ rank_metrics._option_names() ~ ", metrics and confidence "
            ~ "(evaluate), baseline, test, correction and alpha (compare), validate (dbt)") }}
    {%- endfor -%}
    {%- do rank_metrics._option_values(plan, k, normalization=normalization, users=users, duplicates=duplicates,
                                       tie_break=tie_break, convention=convention, gain=gain, gain_from=gain_from,
                                       precision_denominator=precision_denominator,
                                       recall_denominator=recall_denominator, truth_scope=truth_scope,
                                       metrics=metrics, confidence=confidence) -%}

    {#- relevance=false: truth has no grade column (below) -#}
    {%- set no_grades = relevance is sameas false -%}
    {%- set relevance = none if no_grades else relevance -%}
    {#- relevance_threshold: a finite number (an int, a float or a Decimal: a Fraction would be
        an integer division, 1/3, on PostgreSQL); relevant = grade >= it, instead of grade > 0 -#}
    {%- if relevance_threshold is not none and (relevance_threshold is not number or relevance_threshold is boolean
            or not rank_metrics._spells_a_number(relevance_threshold) | trim) -%}
        {{ exceptions.raise_compiler_error("rank_metrics: relevance_threshold must be a finite number (an int, a float or a Decimal); got " ~ rank_metrics._shown_as_given(relevance_threshold)) }}
    {%- endif -%}

    {#- column names: strings, checked against the tables' columns where those are known -#}
    {%- set by_list = [] if by is none else ([by] if by is string else by | list) -%}
    {#- truth's user and item columns: the same names as in predictions unless named -#}
    {%- set truth_user = user if truth_user is none else truth_user -%}
    {%- set truth_item = item if truth_item is none else truth_item -%}
    {%- for name, value in [('user', user), ('item', item), ('truth_user', truth_user), ('truth_item', truth_item)] -%}
        {%- if value is not string or value == '' -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ name ~ " must be a column name; got " ~ rank_metrics._shown(value)) }}
        {%- endif -%}
    {%- endfor -%}
    {%- if user == item -%}
        {{ exceptions.raise_compiler_error("rank_metrics: user and item both name column " ~ user ~ "; they must be two different columns") }}
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
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ table ~ "_shape must be one of 'long', 'list'; got " ~ rank_metrics._shown(resolved)) }}
        {%- endif -%}
        {#- text to split: a list table whose item column is known not to be a list, or, when its
            type is not known (text input), one for which a separator is given -#}
        {%- set separated = resolved == 'list' and (not typed_list if item_type is not none else item_separator is not none) -%}
        {%- if separated and item_separator is none -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ table ~ "_shape='list' but item column " ~ item_name ~ " of " ~ table ~ " is "
                ~ (item_type or 'not known to be a list') ~ ", not a list; for items in text, name their separator with item_separator= (' ' in a Kaggle submission)"
                ~ ("; for a row per item (long form), pass no predictions_shape but its rank= or score=" if table == 'predictions' else "")) }}
        {%- endif -%}
        {%- if separated and item_type is not none and rank_metrics._type_family(item_type) != 'string' -%}
            {{ exceptions.raise_compiler_error("rank_metrics: item_separator splits text, but item column " ~ item_name ~ " of " ~ table ~ " is " ~ item_type) }}
        {%- endif -%}
        {%- do shapes.update({table: {'list': resolved == 'list', 'given': shape is not none, 'separator': item_separator if separated else none,
                                      'text_items': item_type is not none and rank_metrics._type_family(item_type) == 'string',
                                      'element_type': none if item_type is none else ('varchar' if separated else rank_metrics._element_type(item_type) | replace('array', '') or none)}}) -%}
    {%- endfor -%}
    {%- if item_separator is not none and (item_separator is not string or item_separator == '') -%}
        {{ exceptions.raise_compiler_error("rank_metrics: item_separator must be a non-empty text; got " ~ rank_metrics._shown(item_separator)) }}
    {%- endif -%}
    {#- a separator that splits nothing would leave each whole text as one item: a silent miss -#}
    {%- if item_separator is not none and shapes.predictions.separator is none and shapes.truth.separator is none -%}
        {%- set typed = [] -%}
        {%- for table in ['predictions', 'truth'] if shapes[table].list -%}{%- do typed.append(table) -%}{%- endfor -%}
        {%- if typed | length == 2 -%}
        {{ exceptions.raise_compiler_error("rank_metrics: item_separator splits the items of a list-shaped table out of text, but the item columns of "
            ~ "predictions and truth hold lists already: pass no item_separator") }}
        {%- elif typed -%}
        {%- set other = 'truth' if typed[0] == 'predictions' else 'predictions' -%}
        {{ exceptions.raise_compiler_error("rank_metrics: item_separator splits the items of a list-shaped table out of text, but the item column of "
            ~ typed[0] ~ " holds lists already: for " ~ other ~ " with each user's items in one text, pass " ~ other ~ "_shape='list' with it; else pass no item_separator") }}
        {%- endif -%}
        {#- (where the columns are not looked up, as when dbt parses a project, no table is known to be one) -#}
        {{ exceptions.raise_compiler_error("rank_metrics: item_separator splits the items of a list-shaped table out of text, but no table is said to be one:"
            ~ " pass predictions_shape='list' for predictions with each user's items in one text, truth_shape='list' for truth in that form, or both") }}
    {%- endif -%}
    {%- if shapes.predictions.list -%}
        {#- a rank or score column beside lists whose shape was not said would be left unread, though
            it may hold the order meant (a score list per user beside its items) -#}
        {%- for name in ['rank', 'score'] if not shapes.predictions.given and rank is none and score is none and name in (predictions_names or []) -%}
            {{ exceptions.raise_compiler_error("rank_metrics: predictions' item column " ~ item ~ " holds lists, which are read in their own order, "
                ~ "and its " ~ name ~ " column would be left unread: for that order, give a row per item (long form; explode both columns); "
                ~ "else drop the column or pass predictions_shape='list'") }}
        {%- endfor -%}
        {%- for argument, value in [('rank', rank), ('score', score)] if value is not none -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ argument ~ ": list-shaped predictions are ordered by their lists; pass no rank or score (got " ~ argument ~ "=" ~ rank_metrics._shown(value) ~ ")") }}
        {%- endfor -%}
        {%- set rank = 'rm_list_position' -%}
    {%- endif -%}
    {%- if shapes.truth.list and relevance is not none -%}
        {{ exceptions.raise_compiler_error("rank_metrics: relevance: list-shaped truth has no grades; pass no relevance (got relevance=" ~ rank_metrics._shown(relevance) ~ ")") }}
    {%- endif -%}

    {#- rank or score: exactly one orders each user's list -#}
    {%- if rank is not none and score is not none -%}
        {{ exceptions.raise_compiler_error("rank_metrics: pass rank or score, not both (got rank=" ~ rank_metrics._shown(rank) ~ ", score=" ~ rank_metrics._shown(score) ~ ")") }}
    {%- elif rank is none and score is none -%}
        {%- if predictions_names is none -%}
            {%- set rank = 'rank' -%}
        {%- elif 'rank' in predictions_names and 'score' in predictions_names -%}
            {{ exceptions.raise_compiler_error("rank_metrics: predictions has both a rank and a score column; name the one to use with rank= or score=") }}
        {%- elif 'rank' in predictions_names -%}
            {%- set rank = 'rank' -%}
        {%- elif 'score' in predictions_names -%}
            {%- set score = 'score' -%}
        {%- else -%}
            {%- for wanted in ['rank', 'score'] -%}
                {%- set spelt = rank_metrics._in_another_case(predictions_names, wanted) -%}
                {%- if spelt -%}
                {{ exceptions.raise_compiler_error("rank_metrics: predictions has neither a rank nor a score column, but it has "
                    ~ rank_metrics._spelt_otherwise(wanted, spelt) ~ " (names are matched as spelt): pass " ~ wanted ~ "='" ~ spelt ~ "'") }}
                {%- endif -%}
            {%- endfor -%}
            {#- a missing item column is the first thing to say (the check of every column below) -#}
            {%- if item in predictions_names -%}
            {%- set in_truth = (truth_names or []) | select('in', ['rank', 'score']) | list -%}
            {#- a text item column may hold each user's whole list, as a Kaggle submission does -#}
            {%- set as_list = "; or, if each row holds a user's whole list in column " ~ item ~ ", pass predictions_shape='list'"
                ~ " (with item_separator= for items in text: ' ' in a Kaggle submission)" if shapes.predictions.text_items else "" -%}
            {{ exceptions.raise_compiler_error("rank_metrics: predictions has neither a rank nor a score column; name one with rank= or score= (its columns are: " ~ predictions_names | join(', ') ~ ")"
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
        {{ exceptions.raise_compiler_error("rank_metrics: relevance_threshold " ~ rank_metrics._shown(relevance_threshold) ~ " applies to grades, but "
            ~ ("list-shaped truth has none: give truth in long form (a row per item, with its grade) and name its grade column with relevance="
               if shapes.truth.list else "no grade column of truth is read: name it with relevance= (truth's columns are: " ~ truth_names | join(', ') ~ ")")
            ~ "; without grades every truth row is relevant") }}
    {%- endif -%}

    {#- by columns that truth also has are matched on; others share one truth -#}
    {%- if truth_by is none -%}
        {%- set truth_by = [] if truth_names is none else by_list | select('in', truth_names) | list -%}
        {#- a by column that truth spells in another case would silently share one truth across groups -#}
        {%- for name in by_list if truth_names is not none and name not in truth_by -%}
            {%- set spelt = rank_metrics._in_another_case(truth_names, name) -%}
            {%- if spelt -%}
                {{ exceptions.raise_compiler_error("rank_metrics: by column " ~ name ~ " is in truth as " ~ rank_metrics._spelt_otherwise(name, spelt) ~ "; names are matched as spelt, "
                    ~ "so the groups would not be matched with truth's but share all of it: rename one of the two columns") }}
            {%- endif -%}
        {%- endfor -%}
    {%- else -%}
        {%- set truth_by = [truth_by] if truth_by is string else truth_by | list -%}
    {%- endif -%}
    {%- for name in truth_by if name not in by_list -%}
        {{ exceptions.raise_compiler_error("rank_metrics: truth_by column " ~ name ~ " is not one of the by columns (" ~ by_list | join(', ') ~ ")") }}
    {%- endfor -%}

    {#- the columns the metric macros output: a user, item or by column of the same name would
        make two columns of one name, or one whose values are not what its name says -#}
    {%- set metric_columns = {'map': 'average_precision', 'ndcg': 'ndcg', 'precision': 'precision',
                              'recall': 'recall', 'mrr': 'reciprocal_rank', 'hit_rate': 'hit'} -%}
    {%- set group_columns = {'map': 'map_at_k', 'ndcg': 'ndcg_at_k', 'precision': 'precision_at_k',
                             'recall': 'recall_at_k', 'mrr': 'mrr_at_k', 'hit_rate': 'hit_rate_at_k'} -%}
    {%- set output_columns = ['k', 'map_at_k', 'n_users', 'average_precision', 'n_relevant', 'n_hits',
                              'metric', 'value', 'ndcg', 'precision', 'recall', 'reciprocal_rank', 'hit',
                              'ndcg_at_k', 'precision_at_k', 'recall_at_k', 'mrr_at_k', 'hit_rate_at_k',
                              'std_error', 'ci_low', 'ci_high', 'baseline_value', 'difference', 'relative_difference',
                              't', 'df', 'p_value', 'p_value_adjusted', 'significant', 'n_only_model', 'n_only_baseline'] -%}
    {#- in any case: the engines fold unquoted names, so N_Users and n_users are one column to them -#}
    {%- for argument, name in [('user', user), ('item', item)] if name is string and (name | lower) in output_columns -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ argument ~ " column " ~ name ~ " clashes with an output column (" ~ output_columns | join(', ') ~ "); rename it in a view or select") }}
    {%- endfor -%}
    {%- set reserved = [user, item, rank, score] + output_columns -%}
    {%- set reserved_lower = reserved | reject('none') | map('lower') | list -%}
    {%- for name in by_list -%}
        {%- if name is not string or name == '' -%}
            {{ exceptions.raise_compiler_error("rank_metrics: by must be a column name or a list of them; got " ~ rank_metrics._shown(name)) }}
        {%- elif by_list[:loop.index0] | select('equalto', name) | list -%}
            {{ exceptions.raise_compiler_error("rank_metrics: by names column " ~ name ~ " twice") }}
        {%- elif (name | lower) in reserved_lower or (name | lower).startswith('rm_') -%}
            {{ exceptions.raise_compiler_error("rank_metrics: by column " ~ name ~ " clashes with the user, item or order column or an output column (" ~ reserved | reject('none') | join(', ') ~ ", rm_*)") }}
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
            {%- set other_name = "; name truth's own column with truth_" ~ argument ~ "=" if table == 'truth' and argument in ['user', 'item'] else "" -%}
            {%- set spelt = rank_metrics._in_another_case(names, name) -%}
            {%- if spelt -%}
                {#- truth's own spelling is named by truth_user / truth_item; a matched by column
                    must be spelt alike in both tables -#}
                {%- set fix = "rename one of the two columns" if argument == 'truth_by'
                    else "pass " ~ ('truth_' ~ argument if table == 'truth' and argument in ['user', 'item'] else argument) ~ "='" ~ spelt ~ "'" -%}
                {%- set other_name = "; it has " ~ rank_metrics._spelt_otherwise(name, spelt) ~ " (names are matched as spelt): " ~ fix -%}
            {%- elif names and rank_metrics._read_without_header(names) | trim == 'True' -%}
                {#- DuckDB's CSV reader names the columns of a file without a header line column0,
                    column1, … (a new user's trial) -#}
                {%- set other_name = "; the file has no header line, so its columns were numbered: begin it with one naming them (" ~ name ~ ", …)" -%}
            {%- elif name | lower in ['none', 'null'] -%}
                {#- a gate's YAML `relevance: none` is the text 'none' (a new user's trial) -#}
                {%- set other_name = "; in a YAML file none is this text: write null (" ~ argument ~ ": null)" ~ other_name -%}
            {%- elif rank_metrics._nearest_name(name, names) -%}
                {%- set other_name = "; did you mean " ~ rank_metrics._nearest_name(name, names) ~ "?" ~ other_name -%}
            {%- endif -%}
            {{ exceptions.raise_compiler_error("rank_metrics: column " ~ name ~ " (argument " ~ argument ~ ") is not in " ~ table ~ "; its columns are: " ~ names | join(', ') ~ other_name) }}
        {%- endfor -%}
    {%- endfor -%}

    {#- the order and grade columns are compared with numbers: only numeric types will do -#}
    {%- for table, columns, checked in [('predictions', predictions_columns, [('rank', none if shapes.predictions.list else rank), ('score', score)]),
                                        ('truth', truth_columns, [('relevance', relevance)])] if columns is not none -%}
        {%- for argument, name in checked if name is not none -%}
            {%- set column = columns | selectattr('name', 'equalto', name) | first -%}
            {%- if rank_metrics._type_family(column.data_type) not in ('number', 'floating point', 'no type') -%}
                {{ exceptions.raise_compiler_error("rank_metrics: column " ~ name ~ " (argument " ~ argument ~ ") of " ~ table ~ " is " ~ column.data_type ~ "; " ~ argument ~ " must be a numeric column (integer, decimal or floating point)") }}
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
            {{ exceptions.raise_compiler_error("rank_metrics: column " ~ name ~ " (argument " ~ argument ~ ") of " ~ table ~ " is " ~ data_type
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
                {{ exceptions.raise_compiler_error("rank_metrics: column " ~ name ~ " (argument " ~ argument ~ ") is " ~ left ~ " in predictions but "
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
    {#- patterns_suffice: every requested metric of a user is a function of the user's hit pattern
        (the word of relevant hit positions, m(u), and n(u) where precision divides by it), so
        group results may count users per pattern (_user_sums); hit_patterns says they do, and
        only the macros that output groups turn it on -#}
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
        'needs_list_length': 'precision' in plan.metrics and plan.precision_denominator == 'list_length',
        'ideal_from_m': ideal_from_m,
        'hits_as_bits': 'map' in plan.metrics and bits_counted,
        'patterns_suffice': bits_counted and ('ndcg' not in plan.metrics or ideal_from_m),
        'hit_patterns': false,
        'by': quoted_by, 'truth_by': quoted_truth_by,
        'by_types': by_types,
        'shapes': shapes,
        'names': {'user': user, 'item': item, 'truth_user': truth_user, 'truth_item': truth_item, 'rank': rank, 'score': score, 'relevance': relevance,
                  'by': by_list, 'truth_by': truth_by},
    }) -%}
{% endmacro %}


{#- The options whose values are a choice, a preset, k, metrics and confidence: resolved into
    `plan`, checked. Its own macro so that Python checks them before reading any input (a bad
    convention beside a missing file was said as the missing file). -#}
{% macro _option_values(plan, k, normalization=none, users=none, duplicates=none, tie_break=none, convention=none,
                        gain=none, gain_from=none, precision_denominator=none, recall_denominator=none,
                        truth_scope=none, metrics=none, confidence=none) %}
    {#- each peer's preset (SPEC §1 and §6): every option, so that a convention means one thing -#}
    {%- set family = {'gain': 'linear', 'gain_from': 'graded', 'precision_denominator': 'k', 'recall_denominator': 'm', 'truth_scope': 'all'} -%}
    {%- set conventions = {
        'ml_metrics':   dict(family, normalization='min_m_k', duplicates='first',    users='predictions', tie_break='item'),
        'kaggle':       dict(family, normalization='min_m_k', duplicates='first',    users='truth',       tie_break='item'),
        'spark':        dict(family, normalization='min_m_k', duplicates='all',      users='predictions', tie_break='item', gain='binary'),
        'recommenders': dict(family, normalization='min_m_k', duplicates='all',      users='both',        tie_break='item', gain='binary'),
        'trec_eval':    dict(family, normalization='m',       duplicates='error',    users='both',        tie_break='item_desc'),
        'ranx':         dict(family, normalization='m',       duplicates='collapse', users='judged',      tie_break='item', gain_from='relevant'),
        'torchmetrics': dict(family, normalization='hits',    duplicates='all',      users='predictions', tie_break='item', truth_scope='listed'),
        'evidently':    dict(family, normalization='m',       duplicates='all',      users='truth',       tie_break='item', truth_scope='listed', precision_denominator='list_length'),
    } -%}
    {%- set choices = {
        'normalization': ['min_m_k', 'm', 'hits'],
        'users': ['truth', 'predictions', 'judged', 'both', 'union'],
        'duplicates': ['first', 'collapse', 'all', 'error'],
        'tie_break': ['item', 'item_desc'],
        'gain': ['linear', 'exponential', 'binary'],
        'gain_from': ['graded', 'relevant'],
        'precision_denominator': ['k', 'list_length'],
        'recall_denominator': ['m', 'min_m_k'],
        'truth_scope': ['all', 'listed'],
    } -%}

    {#- convention: a preset; options passed explicitly still win -#}
    {%- if convention is not none and convention not in conventions -%}
        {{ exceptions.raise_compiler_error("rank_metrics: convention must be one of " ~ rank_metrics._shown(conventions | list | sort) ~ "; got " ~ rank_metrics._shown(convention)
            ~ rank_metrics._meant(convention, conventions | list | sort)) }}
    {%- endif -%}
    {%- set preset = conventions[convention] if convention is not none else conventions['kaggle'] -%}
    {%- set given = {'normalization': normalization, 'users': users, 'duplicates': duplicates, 'tie_break': tie_break,
                     'gain': gain, 'gain_from': gain_from, 'precision_denominator': precision_denominator,
                     'recall_denominator': recall_denominator, 'truth_scope': truth_scope} -%}
    {%- for option, allowed in choices.items() -%}
        {%- set value = given[option] if given[option] is not none else preset[option] -%}
        {%- if value not in allowed -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ option ~ " must be one of " ~ rank_metrics._shown(allowed) ~ "; got " ~ rank_metrics._shown(value)
                ~ rank_metrics._meant(value, allowed)) }}
        {%- endif -%}
        {%- do plan.update({option: value}) -%}
    {%- endfor -%}
    {#- the options the convention set (for messages that name where a value came from) -#}
    {%- do plan.update({'convention': convention,
                        'preset_options': given | dictsort | selectattr(1, 'none') | map(attribute=0) | list if convention is not none else []}) -%}

    {#- k: several are computed in one pass -#}
    {%- set k_problem = rank_metrics._k_problem(k) -%}
    {%- if k_problem -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ k_problem) }}
    {%- endif -%}
    {%- set k_list = [k] if (k is not iterable or k is string) else k -%}
    {%- do plan.update({'ks': k_list | unique | sort | list}) -%}

    {#- metrics: the family's names (SPEC §6), each computed once, in this order -#}
    {%- set known_metrics = (rank_metrics._metric_names() | trim).split(' ') -%}
    {%- set metric_list = known_metrics if metrics is none else ([metrics] if metrics is string else metrics | list) -%}
    {%- if metric_list | length == 0 -%}
        {{ exceptions.raise_compiler_error("rank_metrics: metrics must name at least one of " ~ rank_metrics._shown(known_metrics) ~ "; got an empty list") }}
    {%- endif -%}
    {%- for name in metric_list if name not in known_metrics -%}
        {{ exceptions.raise_compiler_error("rank_metrics: metrics: unknown metric " ~ rank_metrics._shown(name) ~ rank_metrics._meant(name, known_metrics)
            ~ "; the metrics are " ~ rank_metrics._shown(known_metrics)) }}
    {%- endfor -%}
    {%- do plan.update({'metrics': known_metrics | select('in', metric_list) | list}) -%}

    {#- confidence: of the interval around each mean (SPEC §7), strictly between 0 and 1 -#}
    {%- set confidence = 0.95 if confidence is none else confidence -%}
    {%- if confidence is not number or confidence is boolean or not rank_metrics._spells_a_number(confidence) | trim
            or not (confidence > 0 and confidence < 1) -%}
        {{ exceptions.raise_compiler_error("rank_metrics: confidence must be a number between 0 and 1 (0.95 for a 95% interval); got " ~ rank_metrics._shown(confidence)) }}
    {%- endif -%}
    {%- set confidence = confidence | float -%}
    {%- do plan.update({'confidence': confidence, 'z': rank_metrics._normal_quantile_of_confidence(confidence) | float}) -%}
{% endmacro %}


{#- The first of `names` that is `name` in another case (the engines may fold it, the macros
    match names as spelt), or ''. -#}
{% macro _in_another_case(names, name) -%}
    {%- set found = [] -%}
    {%- for other in names if other != name and (other | lower | trim) == (name | lower | trim) -%}{%- do found.append(other) -%}{%- endfor -%}
    {{- found | first if found else '' -}}
{%- endmacro %}

{#- The name _in_another_case found, and how it differs, for messages: in case, or in the spaces
    around it (then quoted, so that they show: 'relevance '). -#}
{% macro _spelt_otherwise(name, spelt) -%}
    {%- if (spelt | trim) != spelt or (name | trim) != name -%}{{ rank_metrics._shown(spelt) }},
        {{- ' in another case and' if (spelt | trim) != (name | trim) }} with other spaces around it
    {%- else -%}{{ spelt }}, in another case{%- endif -%}
{%- endmacro %}


{#- A numeric truth column named as grades usually are (rel, label, rating, …, in any case) that
    no relevance= names: every truth row then counts as relevant, those graded 0 too (trec
    qrels read as (query, doc, rel) gave P@10 1.0 against trec_eval's 0.3). Its name, or ''.
    `used` holds the columns read as something else (user, item, by). A column named `relevance`
    is read as grades without being named, so then nothing is unread — except in list-shaped
    truth (truth_is_list), which has no grades. A boolean column counts (clicked: true/false),
    though grades must be numbers: _unread_grade_advice says so. A file without a header has
    columns named column0, column1, … (DuckDB's names): the last numeric one that is not read is
    named too, as in TREC qrels (query, 0, doc, grade: column3; P@10 1.0 against 0.3). -#}
{% macro _unread_grade_column(truth_columns, relevance, used, truth_is_list=false) -%}
    {%- set grade_names = ['relevance', 'rel', 'relevancy', 'relevant', 'is_relevant', 'relevance_score', 'grade', 'grades',
                           'label', 'judgment', 'judgement', 'qrel', 'rating', 'gain', 'score', 'target', 'click', 'clicks', 'clicked',
                           'stars', 'star', 'ratings', 'labels', 'scores'] -%}
    {%- set found = [] -%}
    {%- set in_name = [] -%}
    {%- set unnamed = [] -%}
    {%- if relevance is none and truth_columns is not none and (truth_is_list or 'relevance' not in truth_columns | map(attribute='name') | list) -%}
        {%- for column in truth_columns if column.name not in used
                                           and rank_metrics._type_family(column.data_type | string) in ('number', 'floating point', 'boolean', 'bool') -%}
            {%- set words = (column.name | lower).replace('-', '_').replace(' ', '_').split('_') -%}
            {%- if (column.name | lower) in grade_names -%}
                {%- do found.append(column.name) -%}
            {#- a grade word within the name: qty_grade, user_rating, star-count -#}
            {%- elif words | select('in', grade_names) | list -%}
                {%- do in_name.append(column.name) -%}
            {%- elif rank_metrics._is_numbered_column(column.name) | trim == 'True' -%}
                {%- do unnamed.append(column.name) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {{- (found + in_name) | first if found + in_name else (unnamed | last if unnamed else '') -}}
{%- endmacro %}


{#- Whether truth is list-shaped (a row per user, its items in one column): truth_shape='list', or
    no shape given and its item column a list. As _plan decides it, from the columns alone. -#}
{% macro _truth_is_list(truth_columns, truth_item, truth_shape) -%}
    {%- set found = (truth_columns or []) | selectattr('name', 'equalto', truth_item) | list -%}
    {%- set item_type = (found | first).data_type | string if found else none -%}
    {%- set typed_list = item_type is not none and rank_metrics._element_type(item_type) != item_type -%}
    {{- 'true' if truth_shape == 'list' or (truth_shape is none and typed_list) else '' -}}
{%- endmacro %}


{#- The warning about the unread grade column `name` (shown as `shown`), for Python and dbt. -#}
{% macro _unread_grade_message(truth_columns, name, shown, truth_is_list) -%}
    {%- if truth_is_list -%}
    truth has a column {{ shown }} that is not read: list-shaped truth has no grades, so every item of a user's list counts as relevant, whatever {{ shown }} holds; for grades, give truth in long form (a row per item, with its grade) and pass relevance='{{ name }}'
    {%- else -%}
    truth has a column {{ shown }} that is not read: every truth row counts as relevant, whatever {{ shown }} holds; if it holds relevance grades (0 or less: not relevant), {{ rank_metrics._unread_grade_advice(truth_columns, name) }}
    {%- endif -%}
{%- endmacro %}


{#- Under convention='trec_eval' with its own tie-break: trec_eval orders documents of equal
    score by their ids as text (strcmp, descending), where numbers order as numbers ('10' < '9'
    as text, 10 > 9 as numbers); a TREC run's all-digit doc ids read from a file are numbers.
    The warning's text when the item column holds numbers, else ''. -#}
{% macro _text_order_warning(predictions_columns, item, convention, tie_break) -%}
    {%- set found = (predictions_columns or []) | selectattr('name', 'equalto', item) | list -%}
    {%- set item_type = rank_metrics._element_type((found | first).data_type | string) if found else none -%}
    {%- if convention == 'trec_eval' and tie_break is none and item_type is not none
          and rank_metrics._type_family(item_type | string) in ('number', 'floating point') -%}
    convention='trec_eval': trec_eval orders documents of equal score by their ids as text, descending ('9' before '10'), but column {{ item }} holds numbers ({{ item_type }}), ordered as numbers; where scores tie the numbers can differ from trec_eval's: give the ids as text to reproduce it
    {%- endif -%}
{%- endmacro %}


{#- rank= naming a column named as scores are (score, probability, confidence, …), which is read
    ascending, the lowest first; or score= naming one named as ranks are (rank, position), read
    descending: either way a list is read backwards, and no check can tell (a new user's trial:
    0.222 for 0.444). The warning's text, else ''. A name with words of both kinds is left alone. -#}
{% macro _order_column_warning(rank, score) -%}
    {#- words of the name split at _, - and space: a whole-name entry with _ in it could never match -#}
    {%- set score_words = ['score', 'scores', 'prob', 'proba', 'probability', 'confidence', 'similarity', 'logit',
                           'logits', 'likelihood'] -%}
    {%- set rank_words = ['rank', 'ranks', 'ranking', 'position', 'pos', 'place'] -%}
    {%- set named = rank if rank is string else score if score is string else '' -%}
    {%- set words = (named | lower).replace('-', '_').replace(' ', '_').split('_') -%}
    {%- set scores = words | select('in', score_words) | list -%}
    {%- set ranks = words | select('in', rank_words) | list -%}
    {%- if rank is string and scores and not ranks -%}
    rank='{{ rank }}' reads column {{ rank }} ascending (its lowest value first), but it is named as scores are; if a higher value is better, pass score='{{ rank }}'
    {%- elif score is string and ranks and not scores -%}
    score='{{ score }}' reads column {{ score }} descending (its highest value first), but it is named as ranks are; if its lowest value is the first item, pass rank='{{ score }}'
    {%- endif -%}
{%- endmacro %}


{#- What to do about the unread grade column `name`: name it, cast to a number first when it is
    boolean (relevance= takes numbers only). -#}
{% macro _unread_grade_advice(truth_columns, name) -%}
    {%- set found = truth_columns | selectattr('name', 'equalto', name) | list -%}
    {%- set boolean = found and rank_metrics._type_family(found[0].data_type | string) in ('boolean', 'bool') -%}
    {{- ("it is boolean: cast it to an integer (1 relevant, 0 not) and pass relevance='" if boolean else "pass relevance='") ~ name ~ "'" -}}
{%- endmacro %}


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

{#- The argument that names truth's user or item column: truth_user / truth_item when truth's
    column has a name of its own (`truth_name`), else user / item, which name both. -#}
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
    {{- "rank_metrics: column " ~ (name if table == 'predictions' else truth_name) ~ " (argument "
        ~ (argument if table == 'predictions' or argument == 'by' else rank_metrics._truth_argument(argument, truth_name, name))
        ~ ") of " ~ table ~ " is " ~ data_type -}}
{%- endmacro %}


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


{#- The arguments that only some public macros take: given to another, they would be dropped
    without a word (map_at_k(metrics=['ndcg']) would still be MAP), so they fail instead. -#}
{% macro _macro_arguments(macro, options) %}
    {%- set taken_by = {'metrics': ['evaluate', 'evaluate_users', 'compare'], 'confidence': ['evaluate'],
                        'baseline': ['compare'], 'test': ['compare'], 'correction': ['compare'], 'alpha': ['compare']} -%}
    {%- for name, macros in taken_by.items() -%}
        {%- if options.get(name) is not none and macro not in macros -%}
            {{ exceptions.raise_compiler_error("rank_metrics: " ~ macro ~ " takes no " ~ name ~ " (" ~ name ~ " is an argument of "
                ~ macros | join(', ') ~ "); got " ~ name ~ "=" ~ rank_metrics._shown_as_given(options[name])) }}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}

{#- The known name a misspelt one most likely meant, or '' (Jinja has no difflib): the nearest by
    edits within a third of its length ('normalisation', 'nromalization': normalization;
    'item_seperator': item_separator; 'tiebreak': tie_break), else the longest one that begins
    it ('item_col': item; 'relevance_column': relevance; 'userid': user). -#}
{% macro _nearest_name(name, names) -%}
    {%- set lowered = name | lower -%}
    {%- set best = namespace(name='', distance=none) -%}
    {%- for known in names -%}
        {%- set distance = rank_metrics._edit_distance(lowered, known) | int -%}
        {%- if distance <= [1, (known | length) // 3] | max and (best.distance is none or distance < best.distance) -%}
            {%- set best.name = known -%}{%- set best.distance = distance -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if not best.name -%}
        {%- for known in names if lowered.startswith(known) and best.name | length < known | length -%}
            {%- set best.name = known -%}
        {%- endfor -%}
    {%- endif -%}
    {#- a beginning of one name only ('norm' of normalization) -#}
    {%- set longer = namespace(names=[]) -%}
    {%- for known in names if lowered | length >= 3 and known.startswith(lowered) -%}
        {%- set longer.names = longer.names + [known] -%}
    {%- endfor -%}
    {%- if not best.name and longer.names | length == 1 -%}
        {%- set best.name = longer.names[0] -%}
    {%- endif -%}
    {{- best.name -}}
{%- endmacro %}

{#- " (did you mean 'x'?)" for a value near one of `names` (_nearest_name), else nothing. -#}
{% macro _meant(value, names) -%}
    {%- set nearest = rank_metrics._nearest_name(value, names) if value is string else '' -%}
    {{- " (did you mean " ~ rank_metrics._shown(nearest) ~ "?)" if nearest else "" -}}
{%- endmacro %}

{#- The fewest insertions, deletions, substitutions and swaps of two neighbours from a to b
    (Levenshtein's distance with swaps, each substring edited once): 'modle' is 1 from 'model'. -#}
{% macro _edit_distance(a, b) -%}
    {%- set rows = namespace(before=none, values=range(b | length + 1) | list) -%}
    {%- for i in range(1, a | length + 1) -%}
        {%- set next_row = [i] -%}
        {%- for j in range(1, b | length + 1) -%}
            {%- set options = [rows.values[j] + 1, next_row[j - 1] + 1, rows.values[j - 1] + (0 if a[i - 1] == b[j - 1] else 1)] -%}
            {%- if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1] -%}
                {%- do options.append(rows.before[j - 2] + 1) -%}
            {%- endif -%}
            {%- do next_row.append(options | min) -%}
        {%- endfor -%}
        {%- set rows.before = rows.values -%}
        {%- set rows.values = next_row -%}
    {%- endfor -%}
    {{- rows.values[-1] -}}
{%- endmacro %}


{#- The options every metric macro takes, as the messages list them. -#}
{% macro _option_names() -%}
    user, item, rank, score, relevance, by, truth_by, truth_user, truth_item, normalization, users, duplicates, tie_break,
    convention, gain, gain_from, precision_denominator, recall_denominator, truth_scope, relevance_threshold,
    predictions_shape, truth_shape, item_separator
{%- endmacro %}

{#- The family's metric names (SPEC §6), in the order results list them, as words: a macro
    returns only text in plain Jinja. The release gates check their `metric` against them. -#}
{% macro _metric_names() -%}
    map ndcg precision recall mrr hit_rate
{%- endmacro %}

{#- A value as a message shows it: text quoted as Python's repr quotes it (so the command line
    can read a list back, cli._listed_values_as_flags), a list item by item, anything else as is. -#}
{#- Whether every column name is one that DuckDB's CSV reader gives a file without a header
    line: column0, column1, … -#}
{% macro _read_without_header(names) -%}
    {%- set numbered = [] -%}
    {%- for name in names if rank_metrics._is_numbered_column(name) | trim == 'True' -%}{%- do numbered.append(name) -%}{%- endfor -%}
    {{- numbered | length == names | length -}}
{%- endmacro %}

{#- Whether a column name is one DuckDB's CSV reader gives a file without a header line (column3). -#}
{% macro _is_numbered_column(name) -%}
    {{- name is string and name.startswith('column') and name[6:].isdigit() -}}
{%- endmacro %}


{% macro _shown(value) -%}
    {%- if value is string -%}
        {%- set escaped = value | replace('\\', '\\\\') | replace('\n', '\\n') | replace('\r', '\\r') | replace('\t', '\\t') -%}
        {%- if "'" in value and '"' not in value -%}"{{ escaped }}"
        {%- else -%}'{{ escaped | replace("'", "\\'") }}'
        {%- endif -%}
    {%- elif value is iterable and value is not mapping -%}
        {%- for one in value -%}{{ rank_metrics._shown(one) }}{{ ', ' if not loop.last }}{%- endfor -%}
    {%- else -%}{{ value }}
    {%- endif -%}
{%- endmacro %}


{#- A value as an argument's value is written: a list in brackets (metrics=['ndcg']). -#}
{% macro _shown_as_given(value) -%}
    {%- if value is iterable and value is not string and value is not mapping -%}[{{ rank_metrics._shown(value) }}]
    {%- else -%}{{ rank_metrics._shown(value) }}
    {%- endif -%}
{%- endmacro %}


{#- What is wrong with k, as a sentence ('' when nothing): it must be a positive integer or a
    non-empty list of them, each within the engines' bigint. The metric macros and the release
    gates (which name themselves first) both say it. -#}
{% macro _k_problem(k) -%}
    {%- set k_list = [k] if (k is not iterable or k is string) else k -%}
    {%- if k_list | length == 0 -%}
    k must be a positive integer or a non-empty list of them; got an empty list
    {%- else -%}
        {%- for one_k in k_list if one_k is not integer or one_k is boolean or one_k < 1 or one_k > 9223372036854775807 -%}
            {%- if loop.first and (one_k is not integer or one_k is boolean or one_k < 1) -%}
    k must be a positive integer or a non-empty list of them; got {{ rank_metrics._shown(one_k) }}
            {%- elif loop.first -%}
    k must be at most 9223372036854775807 (the engines' bigint); got {{ one_k }}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
{%- endmacro %}
