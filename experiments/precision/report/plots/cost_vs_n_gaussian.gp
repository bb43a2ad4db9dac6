# kexp plot; run `gnuplot cost_vs_n_gaussian.gp` here to redraw cost_vs_n_gaussian.svg
set terminal svg size 1000,1550 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_gaussian.svg'
set title 'time against n: gaussian on friedman1'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'falkon: device=cpu, iterations=20, m=400, seed=0, tolerance=1e-10' at screen 0.01, screen 0.0374 left font ',12'
set label 101 'kernel_ridge: device=cpu' at screen 0.01, screen 0.0232 left font ',12'
set label 102 'Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0090 left font ',12'
set key above maxcols 1 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('800' 800, '3200' 3200)
set logscale x
set logscale y
$line0 << EOD
800 0.0257477495 0.024882711 0.026818021
3200 0.094916014 0.094854542 0.095004724
EOD
$line1 << EOD
800 0.014152176999999998 0.013764502000000001 0.014466342
3200 0.0428888875 0.042328832 0.043497685
EOD
$line2 << EOD
800 0.0253118025 0.024874860999999998 0.025827052
3200 0.09522836700000001 0.095183244 0.095247385
EOD
$line3 << EOD
800 0.013807786999999998 0.01368194 0.014103276
3200 0.0418976325 0.041733314 0.042072868
EOD
$line4 << EOD
800 0.020968461 0.020614089999999998 0.026614330000000002
3200 0.101518532 0.101426055 0.101551564
EOD
$line5 << EOD
800 0.012943195999999999 0.01276296 0.013389905
3200 0.0418549565 0.041767001 0.041973702
EOD
$line6 << EOD
800 0.011511569000000001 0.010520021999999999 0.013318239
3200 0.036109859499999994 0.036013056 0.036224729000000004
EOD
$line7 << EOD
800 0.006895197 0.006818752 0.007850601
3200 0.017133765000000002 0.017086073 0.017519408
EOD
$line8 << EOD
800 0.024318789 0.02385553 0.028961328
3200 1.1436911779999999 1.142607841 1.149045363
EOD
$line9 << EOD
800 0.0097824205 0.009537315 0.014116508
3200 0.41302278600000003 0.41190530000000003 0.41888752700000004
EOD
$line10 << EOD
800 0.002276829 0.002070897 0.004693472
3200 0.07490877200000001 0.07360699700000001 0.08181287599999999
EOD
$line11 << EOD
800 0.0097889125 0.009570496 0.012223736
3200 0.424566267 0.42344621 0.430459086
EOD
$line12 << EOD
800 0.002220477 0.002057933 0.0046752600000000005
3200 0.075170806 0.073966913 0.081493939
EOD
$line13 << EOD
800 0.009703556000000002 0.009487624 0.012682137
3200 0.424930951 0.423739431 0.430818046
EOD
$line14 << EOD
800 0.002206283 0.002056194 0.005042288000000001
3200 0.075804913 0.074509701 0.082193786
EOD
$line15 << EOD
800 0.009667287 0.009432273 0.014402953
3200 0.357034216 0.355929516 0.362553958
EOD
$line16 << EOD
800 0.002209267 0.0020529949999999997 0.004545059000000001
3200 0.075569304 0.074171968 0.08176278199999999
EOD
$line17 << EOD
800 0.0098864195 0.009635817 0.01229604
3200 0.339216236 0.338113671 0.344772299
EOD
$line18 << EOD
800 0.0022129989999999998 0.002053199 0.004546041
3200 0.075568305 0.074228755 0.081861299
EOD
$line19 << EOD
800 0.023894475000000002 0.023709867 0.026324056999999998
3200 0.37603165 0.374943161 0.381682583
EOD
$line20 << EOD
800 0.002220252 0.00205026 0.0046516479999999995
3200 0.075019113 0.073534618 0.081251272
EOD
$line21 << EOD
800 0.008130287 0.007940294 0.010851445
3200 0.31608846700000004 0.314983958 0.321835378
EOD
$line22 << EOD
800 0.003094088 0.0030064749999999998 0.0034506980000000003
3200 0.122174782 0.122127173 0.122309662
EOD
$line23 << EOD
800 0.002211338 0.002050665 0.004567334
3200 0.074281142 0.072683769 0.08072815900000001
EOD
$line24 << EOD
800 0.006755756 0.006561923 0.009467262
3200 0.25053683 0.249448308 0.256202039
EOD
$line25 << EOD
800 0.003217811 0.003131941 0.003568268
3200 0.121633864 0.121593145 0.12170276999999999
EOD
$line26 << EOD
800 0.002224864 0.0020744690000000002 0.004599719
3200 0.073952156 0.072472218 0.080120278
EOD
$line27 << EOD
800 0.006506678 0.006186032 0.009248003000000001
3200 0.24021384899999998 0.23908399499999997 0.24578858199999998
EOD
$line28 << EOD
800 0.0031340490000000003 0.003083373 0.0032248199999999998
3200 0.12364876400000001 0.12362152000000001 0.12367075500000001
EOD
$line29 << EOD
800 0.002213398 0.002062524 0.004554326000000001
3200 0.073958756 0.072716545 0.08045487
EOD
$line30 << EOD
800 0.00596798 0.0057104949999999995 0.008588662
3200 0.219370285 0.218273632 0.22506491099999998
EOD
$line31 << EOD
800 0.003089142 0.003035423 0.003276882
3200 0.123927433 0.123890186 0.124041099
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'falkon (dual) lambda=1e-10, precision=double', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'falkon (dual) lambda=1e-10, precision=mixed', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#009E73' title 'falkon (dual) lambda=1e-07, precision=double', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'falkon (dual) lambda=1e-07, precision=mixed', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#E69F00' title 'falkon (dual) lambda=0.0001, precision=double', \
     $line5 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#56B4E9' title 'falkon (dual) lambda=0.0001, precision=mixed', \
     $line6 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#000000' title 'falkon (dual) lambda=0.1, precision=double', \
     $line7 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#F0E442' title 'falkon (dual) lambda=0.1, precision=mixed', \
     $line8 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge (dual) lambda=1e-10, precision=double', \
     $line9 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual) lambda=1e-10, precision=mixed', \
     $line10 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#009E73' title 'kernel_ridge (dual) lambda=1e-09, precision=double', \
     $line11 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'kernel_ridge (dual) lambda=1e-09, precision=mixed', \
     $line12 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#E69F00' title 'kernel_ridge (dual) lambda=1e-08, precision=double', \
     $line13 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#56B4E9' title 'kernel_ridge (dual) lambda=1e-08, precision=mixed', \
     $line14 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#000000' title 'kernel_ridge (dual) lambda=1e-07, precision=double', \
     $line15 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#F0E442' title 'kernel_ridge (dual) lambda=1e-07, precision=mixed', \
     $line16 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge (dual) lambda=1e-06, precision=double', \
     $line17 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual) lambda=1e-06, precision=mixed', \
     $line18 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#009E73' title 'kernel_ridge (dual) lambda=1e-05, precision=double', \
     $line19 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'kernel_ridge (dual) lambda=1e-05, precision=mixed', \
     $line20 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#E69F00' title 'kernel_ridge (dual) lambda=0.0001, precision=double', \
     $line21 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#56B4E9' title 'kernel_ridge (dual) lambda=0.0001, precision=mixed', \
     $line22 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#000000' title 'kernel_ridge (dual) lambda=0.0001, precision=single', \
     $line23 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#F0E442' title 'kernel_ridge (dual) lambda=0.001, precision=double', \
     $line24 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge (dual) lambda=0.001, precision=mixed', \
     $line25 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual) lambda=0.001, precision=single', \
     $line26 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#009E73' title 'kernel_ridge (dual) lambda=0.01, precision=double', \
     $line27 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'kernel_ridge (dual) lambda=0.01, precision=mixed', \
     $line28 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#E69F00' title 'kernel_ridge (dual) lambda=0.01, precision=single', \
     $line29 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#56B4E9' title 'kernel_ridge (dual) lambda=0.1, precision=double', \
     $line30 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#000000' title 'kernel_ridge (dual) lambda=0.1, precision=mixed', \
     $line31 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#F0E442' title 'kernel_ridge (dual) lambda=0.1, precision=single'
