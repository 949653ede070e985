/** `[diagnose]` keys a chosen diagnostician cannot do without: each missing one as [key, problem]. */
export function diagnosticianNeeds(d: {
  diagnostician?: string | undefined;
  command?: string[] | undefined;
  model?: string | undefined;
}): Array<[string, string]> {
  const chosen = d.diagnostician ?? (d.command ? 'command' : 'rules');
  if (chosen === 'command' && !d.command)
    return [['command', 'is needed with diagnostician = "command": the argv to run']];
  if ((chosen === 'openai' || chosen === 'anthropic') && !d.model)
    return [['model', `is needed with diagnostician = "${chosen}": the model to ask`]];
  return [];
}
