{#- What the plan warns of about the columns: a name found only in another case or spelling,
    a truth column named as grades that relevance= does not name, ties broken by text under
    trec_eval, a rank column named as scores are, a file read without a header line. Each is
    a text for Python and dbt alike. -#}

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
