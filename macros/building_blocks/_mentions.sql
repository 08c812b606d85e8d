{#- Arguments named in messages. A message names an argument through _mention, as the Python API
    spells it; under dbt that is the text itself. When Python renders the macros (its
    rank_metrics_structured_errors is defined; dbt has no such name) it is a marker that
    RankMetricsError reads back (python/rank_metrics/errors.py): the error then knows the argument
    and its value, and the command line names the flag (--truth-user, --predictions-shape list)
    without reading the text. Markers go into messages only, never into SQL. -#}

{#- An argument named in a message. form: 'name' (a word of the sentence: 'k must be'), 'equals'
    ('rank=', an argument to pass), 'value' (name=value, the value as given: predictions_shape='list'),
    'argument' ('(argument truth_user)', after a column name), 'word' (the name, read the same on
    the command line), 'yaml_null' (the hint for a column named none, YAML's text). `value`: the
    argument's value (shown by 'value' only); `shown`: the text, when it is not the form's own. -#}
{% macro _mention(name, value=none, form='name', shown=none) -%}
    {%- set text = shown if shown is not none
        else name ~ '=' if form == 'equals'
        else name ~ '=' ~ rank_metrics._shown_as_given(value) if form == 'value'
        else '(argument ' ~ name ~ ')' if form == 'argument'
        else '; in a YAML file none is this text: write null (' ~ name ~ ': null)' if form == 'yaml_null'
        else name -%}
    {%- if rank_metrics_structured_errors is defined -%}
        {{- rank_metrics_structured_errors.mention(name, value, form, text) -}}
    {%- else -%}
        {{- text -}}
    {%- endif -%}
{%- endmacro %}

{#- A data check's text as a SQL literal: its mentions as plain text (the SQL holds no marker),
    and, when Python renders the check, the text with them appended to `fragments`, from which
    Python puts them back into the problem the query returns. -#}
{% macro _problem_literal(text, fragments=none) -%}
    {%- if rank_metrics_structured_errors is defined -%}
        {%- if fragments is not none -%}{%- do fragments.append(text) -%}{%- endif -%}
        {{- rank_metrics.string_literal(rank_metrics_structured_errors.plain(text)) -}}
    {%- else -%}
        {{- rank_metrics.string_literal(text) -}}
    {%- endif -%}
{%- endmacro %}
