-- Argo CD health of a Quire Schema resource (schemas.quire.io/v1): the key
-- resource.customizations.health.quire.io_Schema of argocd-cm (docs/kubernetes-schemas.md).
-- Healthy only when Quire has reconciled the resource's current generation and the registry's
-- latest version of the subject is the resource's schema; a refusal is Degraded, never Healthy.
hs = {}
if obj.status == nil or obj.status.conditions == nil then
  hs.status = "Progressing"
  hs.message = "waiting for Quire to reconcile the schema"
  return hs
end
if obj.metadata ~= nil and obj.metadata.generation ~= nil and obj.status.observedGeneration ~= obj.metadata.generation then
  hs.status = "Progressing"
  hs.message = "waiting for Quire to reconcile generation " .. obj.metadata.generation
  return hs
end
for _, c in ipairs(obj.status.conditions) do
  if c.type == "Synced" then
    local message = (c.reason or "") .. ": " .. (c.message or "")
    if c.status == "True" then
      hs.status = "Healthy"
    elseif c.reason == "ReferenceMissing" or c.reason == "SchemaSourceMissing" or c.reason == "RegistryUnavailable" then
      -- tried again by the reconciler: not a verdict yet
      hs.status = "Progressing"
    else
      -- Incompatible, InvalidSchema, ChangedOutsideResource, RegistryRefused: needs a person
      hs.status = "Degraded"
    end
    hs.message = message
    return hs
  end
end
hs.status = "Progressing"
hs.message = "no Synced condition yet"
return hs
