-- :GraphmindBlastRadius and :GraphmindChanges (lua/graphmind.lua defines them).
require('graphmind')
