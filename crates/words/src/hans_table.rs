// Traditional → Simplified: the tables and the conversion. Included by `hans.rs` (the page's
// conversion of fetched texts) and by `build.rs` (which writes the Simplified strings of
// `zh.rs`, `zh/narrate.rs`, `zh_errors.rs` and the presets' Chinese texts when the crate is
// built), so both convert alike. Plain `//` comments: an included file has no inner docs.

/// Traditional → Simplified, one pair of characters after another (each of them 3 bytes in
/// UTF-8), sorted by the Traditional one. Every Traditional character in `zh.rs` that has
/// another Simplified form is here (the test `every_traditional_character_of_zh_is_converted`
/// says which are missing); `「」` become the mainland's quotation marks.
const CHARS: &str = "\
「“」”丟丢並并亂乱佇伫併并來来個个們们側侧傳传價价優优儲储兒儿內内兩两別别則则動动務务區区協协卻却參参啟启單单圍围圖图執执報报場场塊块壓压學学實实寫写將将對对屬属帳帐帶带幫帮幾几廢废後后從从復复態态應应\
戶户捨舍換换擇择擊击擬拟攔拦敗败數数於于時时暫暂會会東东條条棄弃業业樂乐標标樣样機机檔档檢检欄栏決决沒没淺浅減减測测滿满濾滤為为無无狀状現现環环畫画發发盡尽盤盘確确碼码種种稱称積积筆笔範范籤签約约紅红納纳\
細细終终組组結结絕绝給给統统經经網网線线編编緩缓縮缩總总繞绕繼继續续脫脱脹胀與与舊旧著着蓋盖處处虛虚號号衝冲補补裡里製制複复見见規规觀观觸触訂订計计訊讯記记設设許许詞词試试話话該该詳详誌志認认語语誤误說说\
課课調调請请論论證证讀读變变讓让負负費费資资蹤踪軸轴較较載载輯辑輸输轉转這这連连進进遊游運运過过達达遞递遠远適适遲迟選选遺遗還还邊边銀银錄录錢钱錯错鍵键鎖锁鏈链鐘钟長长閉闭開开間间關关陣阵隊队際际隨随雖虽\
雙双離离響响頁页項项順顺須须預预頭头額额顏颜類类顯显餘余饋馈驗验驟骤體体麼么點点齊齐";

/// Words the mainland says differently (Taiwan's term → the mainland's), tried before the
/// characters; a longer word comes before any word it starts with.
const WORDS: [(&str, &str); 47] = [
    ("資料來源", "数据源"),
    ("詳細資料", "详细信息"),
    ("資料", "数据"),
    ("網路", "网络"),
    ("分散式", "分布式"),
    ("演算法", "算法"),
    ("投影片", "幻灯片"),
    ("行程", "进程"),
    ("執行緒", "线程"),
    ("執行", "运行"),
    ("呼叫", "调用"),
    ("訊息", "消息"),
    ("非同步", "异步"),
    ("全域", "全局"),
    ("情境", "场景"),
    ("項目", "元素"),
    ("交易", "事务"),
    ("逾時", "超时"),
    ("平行度", "并行度"),
    ("並行", "并发"),
    ("回饋", "反馈"),
    ("連結", "链接"),
    ("開啟", "打开"),
    ("檔案", "文件"),
    ("欄位", "字段"),
    ("佇列", "队列"),
    ("載入", "加载"),
    ("效能", "性能"),
    ("量測", "测量"),
    ("分頁", "标签页"),
    ("設定", "设置"),
    ("重設", "重置"),
    ("套用", "应用"),
    ("選取", "选中"),
    ("遺失", "丢失"),
    ("空白鍵", "空格键"),
    ("帳戶", "账户"),
    ("轉帳", "转账"),
    ("位元組", "字节"),
    ("陣列", "数组"),
    ("布林值", "布尔值"),
    ("字串", "字符串"),
    ("物件", "对象"),
    ("運算子", "算子"),
    ("參照", "引用"),
    // 筆 and 則 after a number are measure words (records, messages): "3 条记录", not
    // "3 笔记录".
    (" 筆", " 条"),
    (" 則", " 条"),
];

/// `text` in Simplified characters.
#[allow(dead_code)]
pub fn to_hans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    'text: while let Some(c) = rest.chars().next() {
        for (word, hans) in WORDS {
            if let Some(after) = rest.strip_prefix(word) {
                out.push_str(hans);
                rest = after;
                continue 'text;
            }
        }
        match simplified(c) {
            Some(s) => out.push_str(s),
            None => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The Simplified form of `c`, if it has another one.
fn simplified(c: char) -> Option<&'static str> {
    let mut buf = [0; 4];
    let key = c.encode_utf8(&mut buf).as_bytes();
    if key.len() != 3 {
        return None;
    }
    let (mut lo, mut hi) = (0, CHARS.len() / 6);
    while lo < hi {
        let mid = (lo + hi) / 2;
        let at = mid * 6;
        match CHARS.as_bytes()[at..at + 3].cmp(key) {
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
            std::cmp::Ordering::Equal => return CHARS.get(at + 3..at + 6),
        }
    }
    None
}

