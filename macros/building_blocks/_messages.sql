{#- How messages show what they were given: values as Python's repr writes them, arguments
    as written, and the known name a misspelt one most likely meant. -#}

{#- The known name a misspelt one most likely meant, or '' (Jinja has no difflib): the nearest by
    edits within a third of its length ('normalisation', 'nromalization': normalization;
    'item_seperator': item_separator; 'tiebreak': tie_break), else the longest one that begins
    it ('item_col': item; 'relevance_column': relevance; 'userid': user), else the one name that
    begins with it or holds its letters in order ('norm': normalization; 'mink': min_m_k). -#}
{% macro _nearest_name(name, names) -%}
    {%- set lowered = name | lower -%}
    {%- set best = namespace(name='', distance=none) -%}
    {%- for known in names -%}
        {%- set distance = rank_metrics._edit_distance(lowered, known) | int -%}
        {%- if distance <= [1, (known | length) // 3] | max and (best.distance is none or distance < best.distance) -%}
            {%- set best.name = known -%}{%- set best.distance = distance -%}
        {%- endif -%}
    {%- endfor -%}
    {#- a name of two letters or more, and more ('userid', 'ndcg10'; 'mink' is no 'm') -#}
    {%- if not best.name -%}
        {%- for known in names if known | length > 1 and lowered.startswith(known) and best.name | length < known | length -%}
            {%- set best.name = known -%}
        {%- endfor -%}
    {%- endif -%}
    {#- a beginning of one name only ('norm' of normalization), or its letters in order in one name
        only ('mink' of min_m_k) -#}
    {%- set longer = namespace(names=[], within=[]) -%}
    {%- for known in names if lowered | length >= 3 -%}
        {%- if known.startswith(lowered) %}{% set longer.names = longer.names + [known] %}{% endif -%}
        {%- set left = namespace(text=lowered) -%}
        {%- for letter in known if left.text and letter == left.text[0] %}{% set left.text = left.text[1:] %}{% endfor -%}
        {%- if not left.text %}{% set longer.within = longer.within + [known] %}{% endif -%}
    {%- endfor -%}
    {%- if not best.name and longer.names | length == 1 -%}
        {%- set best.name = longer.names[0] -%}
    {%- elif not best.name and longer.within | length == 1 -%}
        {%- set best.name = longer.within[0] -%}
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

{#- A value as a message shows it: text quoted as Python's repr quotes it (as Python's own
    messages show it), a list item by item, anything else as is. -#}
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

{#- A number a query gave, as a log line shows it: six significant digits (0.0881226, -14.0213,
    6.02305e-45), a whole number whole; anything else as it is. -#}
{% macro _number_shown(value) -%}
    {#- (NaN and the infinities, which int cannot take, as they are) -#}
    {%- if value is number and value is not boolean and value == value and (value | float) | abs < 1e300
          and value != value | int -%}{{ '%.6g' | format(value | float) }}
    {%- else -%}{{ value }}
    {%- endif -%}
{%- endmacro %}

{#- A value as an argument's value is written: a list in brackets (metrics=['ndcg']). -#}
{% macro _shown_as_given(value) -%}
    {%- if value is iterable and value is not string and value is not mapping -%}[{{ rank_metrics._shown(value) }}]
    {%- else -%}{{ rank_metrics._shown(value) }}
    {%- endif -%}
{%- endmacro %}
