deployItems: []
