<?php
// Usage: STORH_PHP_SRC=<storh 0.5.0 checkout>/src php generate-original-index-keys.php original-index-keys.literals.txt > original-index-keys.jsonl
// Runs the original storh 0.5.0 key functions on values decoded by the original's own reader.
spl_autoload_register(function ($c) { $f = getenv("STORH_PHP_SRC") . "/" . substr($c, 6) . '.php'; if (is_file($f)) require $f; });
$rc = new ReflectionClass(\Storh\DocStoreIndexManager::class);
$m = $rc->newInstanceWithoutConstructor();
$rk = $rc->getMethod('range_key'); $rk->setAccessible(true);
$vk = $rc->getMethod('value_key'); $vk->setAccessible(true);
$ck = $rc->getMethod('compound_value_key'); $ck->setAccessible(true);
$ix = $rc->getMethod('indexable'); $ix->setAccessible(true);
foreach (file($argv[1], FILE_IGNORE_NEW_LINES) as $lit) {
    if ($lit === '') continue;
    $v = \Storh\Jsonc::decode_object('{"v":' . $lit . '}')['v'];
    $row = array('literal' => $lit, 'indexable' => $ix->invoke($m, $v), 'rangeKey' => $rk->invoke($m, $v),
        'valueKey' => $vk->invoke($m, $v), 'compoundKey' => $ck->invoke($m, $v, 'page'));
    echo json_encode($row, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
}
